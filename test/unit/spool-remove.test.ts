// A spool removed before it was closed (a run that stopped during the validation pass) is
// ended first: its file is gone and no descriptor of this process still holds it open (an
// open descriptor would keep a deleted copy of every input row on disk until exit).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Spool } from '../../src/bulk/spool.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/** Paths this process holds open (Linux /proc). */
function openFiles(): string[] {
  return fs.readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      return [fs.readlinkSync(`/proc/self/fd/${fd}`)];
    } catch {
      return []; // closed meanwhile
    }
  });
}

describe('spool removal', () => {
  it.skipIf(process.platform !== 'linux')('remove() before close() ends the file: deleted, and not held open', async () => {
    const tmpdir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-spool-test-'));
    dirs.push(tmpdir);
    const spool = new Spool(tmpdir);
    await spool.add({ line: 2, item: { name: 'a row' } });
    expect(openFiles().filter((file) => file.startsWith(spool.path))).toHaveLength(1);
    await spool.remove();
    expect(fs.existsSync(path.dirname(spool.path))).toBe(false);
    expect(openFiles().filter((file) => file.startsWith(spool.path))).toEqual([]);
  });

  it('remove() after close() removes it too', async () => {
    const tmpdir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-spool-test-'));
    dirs.push(tmpdir);
    const spool = new Spool(tmpdir);
    await spool.add({ line: 2, item: { name: 'a row' } });
    await spool.close();
    await spool.remove();
    expect(fs.existsSync(path.dirname(spool.path))).toBe(false);
  });
});
