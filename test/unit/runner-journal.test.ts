// The send pass and its journal: a batch leaves only once the journal has its sent record on
// disk (sent() resolved), under the key it is sent with; a journal that cannot be written
// stops every later batch; each answered request's final rows are journaled as done. A
// runner that did not wait for sent() passed tsc, ESLint and the kill test.
import { describe, expect, it } from 'vitest';
import type { Batch } from '../../src/bulk/runner.js';
import { runBulk } from '../../src/bulk/runner.js';
import type { MergedRow } from '../../src/bulk/changes/merge.js';
import type { ResultRow } from '../../src/bulk/results.js';
import { doneResults, type DoneRecord, type SentRecord } from '../../src/bulk/journal/journal.js';

const row = (line: number): MergedRow => ({ line, item: { campaign_id: `c${line}`, name: `n${line}` }, key: `c${line}`, hash: `h${line}` });

async function* chunks(rows: MergedRow[]): AsyncGenerator<MergedRow[]> {
  yield rows;
}

/** A journal whose sent() resolves (or rejects) only when the test says, recording what happens in `events`. */
function heldJournal(events: string[]) {
  const held: Array<{ record: Omit<SentRecord, 'type'>; resolve: () => void; reject: (error: Error) => void }> = [];
  const done: Array<Omit<DoneRecord, 'type'>> = [];
  const journal = {
    failure: undefined as Error | undefined,
    sent(record: Omit<SentRecord, 'type'>): Promise<void> {
      // As Journal: once a write failed, nothing more is written.
      if (journal.failure) return Promise.reject(journal.failure);
      events.push(`journal ${record.key}`);
      return new Promise<void>((resolve, reject) => held.push({ record, resolve, reject }));
    },
    done(record: Omit<DoneRecord, 'type'>): void {
      done.push(record);
    },
  };
  return { journal, held, done };
}

const succeed = (events: string[]) => (batch: Batch) => {
  events.push(`send ${batch.idempotencyKey}`);
  return Promise.resolve(batch.items.map((item) => ({ success: { id: String(item.campaign_id) } })));
};

/** Lets every timer, I/O callback and promise queued so far run. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

async function collect(results: AsyncGenerator<ResultRow>): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for await (const result of results) rows.push(result);
  return rows;
}

const options = (journal: ReturnType<typeof heldJournal>['journal'], send: (batch: Batch) => Promise<unknown[]>, rows: MergedRow[]) => ({
  rows: chunks(rows),
  batchSize: 2,
  concurrency: 1,
  send: send as (batch: Batch) => Promise<never[]>,
  idField: 'campaign_id',
  journal,
  signal: new AbortController().signal,
});

describe('the runner and its journal', () => {
  it("sends a batch only once the journal's sent record for its key is on disk", async () => {
    const events: string[] = [];
    const { journal, held, done } = heldJournal(events);
    const run = collect(runBulk(options(journal, succeed(events), [row(1), row(2), row(3)])));
    while (!held.length) await settle();
    await settle();
    await settle();
    // The journal has the first batch's record in hand, but has not said it is durable: nothing went.
    expect(events).toEqual([`journal ${held[0]!.record.key}`]);
    held[0]!.resolve();
    while (held.length < 2) await settle();
    await settle();
    expect(events).toEqual([`journal ${held[0]!.record.key}`, `send ${held[0]!.record.key}`, `journal ${held[1]!.record.key}`]);
    held[1]!.resolve();
    const results = await run;
    expect(results.map((r) => [r.line, r.result])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [3, 'ok'],
    ]);
    expect(held.map((h) => h.record.rows)).toEqual([['c1', 'c2'], ['c3']]);
    // Each answered request's rows are journaled as done under its key (rows that succeeded under
    // their own key by their place in the request: no result of their own).
    expect(done.map((d) => d.results)).toEqual([[], []]);
    const requests = new Map(held.map((h) => [h.record.key, { type: 'sent' as const, ...h.record }]));
    expect(done.map((d) => [d.key, doneResults(d, requests).map((r) => [r.key, r.result, r.line, r.hash])])).toEqual([
      [
        held[0]!.record.key,
        [
          ['c1', 'ok', 1, 'h1'],
          ['c2', 'ok', 2, 'h2'],
        ],
      ],
      [held[1]!.record.key, [['c3', 'ok', 3, 'h3']]],
    ]);
  });

  it('a sent record that cannot be written sends nothing of its batch nor of any later one', async () => {
    const events: string[] = [];
    const { journal, held } = heldJournal(events);
    const run = collect(runBulk({ ...options(journal, succeed(events), [row(1), row(2), row(3)]), batchSize: 1 }));
    while (!held.length) await settle();
    const full = new Error('ENOSPC: no space left on device, fsync');
    journal.failure = full;
    held[0]!.reject(full);
    const results = await run;
    expect(events.filter((e) => e.startsWith('send'))).toEqual([]);
    expect(results.map((r) => [r.line, r.result, r.error_code])).toEqual([
      [1, 'skipped', 'NotSent'],
      [2, 'skipped', 'NotSent'],
      [3, 'skipped', 'NotSent'],
    ]);
    expect(results[0]!.error_message).toContain('the journal could not be written');
  });
});
