// The lock that lets one run at a time use a journal: taken, refused to a second taker with
// the holder named, taken over from a process that is gone, released.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockJournal } from '../../src/bulk/journal/journal-lock.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function journalFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-lock-'));
  dirs.push(dir);
  return path.join(dir, 'run.ndjson');
}

describe('journal lock', () => {
  it('is refused to a second taker, naming the holder, until released; leaves nothing behind', () => {
    const journal = journalFile();
    const lock = lockJournal(journal, '--resume', new Date('2026-01-02T03:04:05Z'));
    expect(() => lockJournal(journal, '--resume', new Date())).toThrow(
      `--resume: ${journal} is in use by another run (pid ${process.pid}, started 2026-01-02T03:04:05.000Z)`,
    );
    lock.release();
    lockJournal(journal, '--journal', new Date()).release();
    expect(fs.readdirSync(path.dirname(journal))).toEqual([]);
  });

  it('is taken over from a run that is gone (killed with SIGKILL, it could not release it)', () => {
    const journal = journalFile();
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout;
    fs.writeFileSync(`${journal}.lock`, JSON.stringify({ pid: Number(gone), started: '2026-01-01T00:00:00.000Z' }));
    const lock = lockJournal(journal, '--resume', new Date());
    expect(JSON.parse(fs.readFileSync(`${journal}.lock`, 'utf8'))).toMatchObject({ pid: process.pid });
    lock.release();
  });
});
