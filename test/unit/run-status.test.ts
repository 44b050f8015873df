// A run's status in `runs list`, from the end of its journal alone (big runs' journals are tens
// of MB): the end record a run writes when it stops, unless it was killed; a resume appends
// after it, so only an end record that is the journal's last whole line counts. `runs prune`
// by count keeps the interrupted ones.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRuns, pruneRuns } from '../../src/bulk/runs/runs.js';
import { tempDir } from '../helpers/temp.js';

const run = (version: number) => ({ type: 'run', version, resource: 'campaigns', mode: 'patch', started: '2026-11-26T10:00:00.000Z', rows: 2 });
const sent = { type: 'sent', key: 'k1', rows: ['a', 'b'], hashes: ['h1', 'h2'], lines: [2, 3] };
const done = { type: 'done', key: 'k1', results: [], ok: [0, 1] };
const end = (unfinished: number, interrupted = false) => ({
  type: 'end',
  ended: '2026-11-26T10:01:00.000Z',
  results: { ok: 2 - unfinished, unchanged: 0, failed: unfinished, invalid: 0, skipped: 0 },
  unfinished,
  interrupted,
});

/** The status `runs list` gives a journal of these lines (`tail`: text after the last newline, a record cut short). */
function statusOf(records: object[], tail = ''): string {
  const dir = tempDir('platform-run-status-');
  fs.writeFileSync(path.join(dir, 'r-12345678.ndjson'), `${records.map((r) => JSON.stringify(r)).join('\n')}\n${tail}`);
  const [listed] = listRuns(dir);
  fs.rmSync(dir, { recursive: true, force: true });
  return listed!.status;
}

describe('run status', () => {
  it('done, failed or interrupted as its end record says', () => {
    expect(statusOf([run(4), sent, done, end(0)])).toBe('done');
    expect(statusOf([run(4), sent, done, end(1)])).toBe('failed');
    expect(statusOf([run(4), sent, end(2, true)])).toBe('interrupted');
  });

  it('interrupted when killed: no end record, one followed by a resume, or one cut short', () => {
    expect(statusOf([run(4), sent])).toBe('interrupted');
    expect(statusOf([run(4), sent, end(2, true), sent])).toBe('interrupted');
    expect(statusOf([run(4), sent, done], '{"type":"end","ended":"2026-11-')).toBe('interrupted');
  });

  it('a run record longer than the part read from either end is listed whole (a long --query in its command)', () => {
    const command = `ads campaigns patch --from-csv c.csv --query "${'x'.repeat(9000)}"`;
    const dir = tempDir('platform-run-status-');
    fs.writeFileSync(path.join(dir, 'r-12345678.ndjson'), `${[{ ...run(4), command }, sent, done, end(0)].map((r) => JSON.stringify(r)).join('\n')}\n`);
    const [listed, ...more] = listRuns(dir);
    fs.rmSync(dir, { recursive: true, force: true });
    expect(more).toEqual([]);
    expect([listed!.record.command, listed!.status]).toEqual([command, 'done']);
  });

  it('a record longer than the part read from the end does not pass for an end record', () => {
    const long = { ...sent, rows: Array.from({ length: 500 }, (_, i) => `id-${i}`), lines: Array.from({ length: 500 }, (_, i) => i + 2) };
    expect(JSON.stringify(long).length).toBeGreaterThan(4096);
    expect(statusOf([run(4), long])).toBe('interrupted');
  });

  it("unknown for an earlier version's journal that has none, done once a resume by this version ended it", () => {
    expect(statusOf([run(3), sent, done])).toBe('unknown');
    expect(statusOf([run(3), sent, done, end(0)])).toBe('done');
  });
});

describe('runs prune', () => {
  it('keeps an interrupted run beyond --keep (only its age removes it), and says so', () => {
    const dir = tempDir('platform-prune-');
    const write = (name: string, started: string, records: object[]) =>
      fs.writeFileSync(path.join(dir, `${name}.ndjson`), `${[{ ...run(4), started }, ...records].map((r) => JSON.stringify(r)).join('\n')}\n`);
    write('a-11111111', '2026-11-01T00:00:00.000Z', [sent, done, end(0)]);
    write('b-22222222', '2026-11-02T00:00:00.000Z', [sent]);
    write('c-33333333', '2026-11-03T00:00:00.000Z', [sent, done, end(0)]);
    const now = Date.parse('2026-11-26T00:00:00.000Z');
    const byCount = pruneRuns(dir, { keep: 1 }, now);
    expect(byCount.removed.map((r) => r.run)).toEqual(['a-11111111']);
    expect(byCount.interruptedKept.map((r) => r.run)).toEqual(['b-22222222']);
    const byAge = pruneRuns(dir, { olderThanMs: 10 * 24 * 3600 * 1000 }, now);
    expect(byAge.removed.map((r) => r.run)).toEqual(['b-22222222', 'c-33333333']);
    expect(listRuns(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
