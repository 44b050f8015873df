// The bulk journal read back after the ways a run can end: records whole, or the last one cut
// short (the machine went down mid-write), and a resumed run appending after it.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Journal, readJournal } from '../../src/bulk/journal/journal.js';

const dirs: string[] = [];
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

function journalFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-journal-'));
  dirs.push(dir);
  return path.join(dir, 'run.ndjson');
}

const ok = (line: number) => ({ line, id: `c${line}`, result: 'ok' as const, error_code: '', error_message: '', key: `c${line}`, hash: 'h' });
/** A batch of the rows of these lines (their keys c<line>). */
const batch = (key: string, lines: number[]) => ({ key, rows: lines.map((l) => `c${l}`), hashes: lines.map(() => 'h'), lines });

describe('journal', () => {
  it('is 0600, and says which rows are done and which batches are still in flight', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    await journal.sent(batch('k1', [2, 3]));
    await journal.sent(batch('k2', [4]));
    journal.done({ key: 'k1', results: [ok(2), ok(3)] });
    journal.close();
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const state = await readJournal(file);
    expect([...state.done.keys()]).toEqual(['c2', 'c3']);
    expect(state.inFlight.map((batch) => batch.key)).toEqual(['k2']);
  });

  it('a file whose run record was cut short is refused, naming the last line read', async () => {
    const file = journalFile();
    fs.writeFileSync(file, '{"type":"run","vers\nnot json\n\n');
    await expect(readJournal(file)).rejects.toThrow(`--resume: ${file} is not a journal of a bulk run (line 3)`);
  });

  it('a record written in part (a disk filling up) is written whole, its non-ASCII text too', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    // The first write of the record lands up to the middle of "é" (2 bytes); the rest follows.
    const write = fs.writeSync.bind(fs) as (fd: number, data: string | Buffer, ...rest: number[]) => number;
    let cut = true;
    vi.spyOn(fs, 'writeSync').mockImplementation(((fd: number, data: string | Buffer, ...rest: number[]) => {
      if (!cut) return write(fd, data, ...rest);
      cut = false;
      const bytes = Buffer.from(data as string);
      return write(fd, bytes.subarray(0, bytes.indexOf(Buffer.from('é')) + 1));
    }) as typeof fs.writeSync);
    await journal.sent({ key: 'é1', rows: ['cé'], hashes: ['h'], lines: [2] });
    vi.restoreAllMocks();
    journal.close();
    const state = await readJournal(file);
    expect(state.inFlight).toEqual([{ type: 'sent', key: 'é1', rows: ['cé'], hashes: ['h'], lines: [2] }]);
  });

  it('a record cut short does not swallow the first record of the run that resumes it', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    await journal.sent(batch('k1', [2]));
    journal.close();
    // The machine went down while the next record was being written: half of it is on disk.
    fs.appendFileSync(file, '{"type":"sent","key":"k2","li');
    const resumed = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0), true);
    await resumed.sent(batch('k3', [3]));
    resumed.done({ key: 'k1', results: [ok(2)] });
    resumed.close();
    const state = await readJournal(file);
    expect([...state.done.keys()]).toEqual(['c2']);
    // k2 never went out (a batch is sent only once its record is whole on disk); k3 did.
    expect(state.inFlight.map((batch) => batch.key)).toEqual(['k3']);
  });

  it('rows named by their place in the request read back as whole results; a version 2 journal (results only) still resumes', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    await journal.sent({ key: 'k1', rows: ['c2', 'c3', 'c4'], hashes: ['h2', 'h3', 'h4'], lines: [2, 3, 4] });
    const failed = { line: 3, id: 'c3', result: 'failed' as const, error_code: 'InvalidArgument', error_message: 'no', key: 'c3', hash: 'h3' };
    journal.done({ key: 'k1', results: [failed], ok: [0, 2] });
    journal.close();
    const state = await readJournal(file);
    expect(Object.fromEntries(state.done)).toEqual({
      c2: { line: 2, id: 'c2', result: 'ok', error_code: '', error_message: '', key: 'c2', hash: 'h2' },
      c3: failed,
      c4: { line: 4, id: 'c4', result: 'ok', error_code: '', error_message: '', key: 'c4', hash: 'h4' },
    });
    expect(state.inFlight).toEqual([]);

    // Written by the version before (every result whole): read as it was.
    const older = journalFile();
    const records = [
      { type: 'run', version: 2, resource: 'campaigns', mode: 'patch', started: new Date(0).toISOString() },
      { type: 'sent', ...batch('k1', [2, 3]) },
      { type: 'sent', ...batch('k2', [4]) },
      { type: 'done', key: 'k1', results: [ok(2), ok(3)] },
    ];
    fs.writeFileSync(older, records.map((r) => `${JSON.stringify(r)}\n`).join(''));
    const olderState = await readJournal(older);
    expect(Object.fromEntries(olderState.done)).toEqual({ c2: ok(2), c3: ok(3) });
    expect(olderState.inFlight.map((b) => b.key)).toEqual(['k2']);

    // One from a newer platform is refused, saying so (not that it is older).
    const newer = journalFile();
    fs.writeFileSync(newer, `${JSON.stringify({ ...records[0], version: 5 })}\n`);
    await expect(readJournal(newer)).rejects.toThrow(
      `--resume: ${newer} was written by a newer version of platform (journal version 5); resume it with that version`,
    );
  });
});
