// Journal.sent resolves only once its record is on disk: the fsync that covers it has
// completed. The fsyncs are held here (fs.fsync is wrapped), so the test sees the record in
// the file but not yet durable, and checks that sent() waits; a failed fsync rejects it and
// stops the journal, as on a full disk.
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

const batch = (key: string, lines: number[]) => ({ key, rows: lines.map((l) => `c${l}`), hashes: lines.map(() => 'h'), lines });

/** fs.fsync, held until the test lets each one finish (with an error, or as the real fsync does). */
function holdFsyncs() {
  const real = fs.fsync;
  const held: Array<{ fd: number; finish: (error?: Error) => void }> = [];
  vi.spyOn(fs, 'fsync').mockImplementation((fd: number, callback: (error: NodeJS.ErrnoException | null) => void) => {
    held.push({ fd, finish: (error) => (error ? callback(error) : real(fd, callback)) });
  });
  return held;
}

/** Lets every timer, I/O callback and promise queued so far run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('journal durability', () => {
  it('sent() resolves only after the fsync that covers its record', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    const held = holdFsyncs();
    let durable = false;
    const sent = journal.sent(batch('k1', [2])).then(() => (durable = true));
    await settle();
    await settle();
    // Written (a killed process keeps it), but not yet flushed: the batch may not go yet.
    expect(fs.readFileSync(file, 'utf8')).toContain('"key":"k1"');
    expect(held).toHaveLength(1);
    expect(durable).toBe(false);
    held[0]!.finish();
    await sent;
    expect(durable).toBe(true);
    journal.close();
  });

  it('abandon() resolves only after the fsync that covers its records (they go before anything is resent)', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    await journal.sent(batch('k1', [2]));
    const held = holdFsyncs();
    let durable = false;
    const abandoned = journal.abandon(['k1']).then(() => (durable = true));
    await settle();
    await settle();
    expect(held).toHaveLength(1);
    expect(durable).toBe(false);
    held[0]!.finish();
    await abandoned;
    journal.close();
    expect((await readJournal(file)).inFlight).toEqual([]);
  });

  it('a record written while an fsync runs waits for the next fsync, not the one under way', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    const held = holdFsyncs();
    const order: string[] = [];
    const first = journal.sent(batch('k1', [2])).then(() => order.push('k1'));
    await settle();
    const second = journal.sent(batch('k2', [3])).then(() => order.push('k2'));
    await settle();
    held[0]!.finish();
    await first;
    await settle();
    await settle();
    // k2 was written after the first fsync began: it is durable only after a second one.
    expect(order).toEqual(['k1']);
    expect(held).toHaveLength(2);
    held[1]!.finish();
    await second;
    expect(order).toEqual(['k1', 'k2']);
    journal.close();
  });

  it('a failed fsync rejects sent(), and the journal writes nothing more', async () => {
    const file = journalFile();
    const journal = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    const held = holdFsyncs();
    const full = Object.assign(new Error('ENOSPC: no space left on device, fsync'), { code: 'ENOSPC' });
    const sent = journal.sent(batch('k1', [2]));
    await settle();
    held[0]!.finish(full);
    await expect(sent).rejects.toThrow('ENOSPC');
    expect(journal.failure?.message).toContain('ENOSPC');
    await expect(journal.sent(batch('k2', [3]))).rejects.toThrow('ENOSPC');
    journal.done({ key: 'k1', results: [] });
    journal.close();
    vi.restoreAllMocks();
    const state = await readJournal(file);
    expect(state.inFlight.map((b) => b.key)).toEqual(['k1']);
  });
});
