// The send pass: validated rows -> batches -> concurrent requests -> exactly one result per
// row, yielded in input order. A batch keeps one idempotency key across the HTTP core's
// retries, so a batch that succeeded is never applied again; items that failed inside a
// batch are final unless their code is transient, and then they are resent (new batch).
import { randomUUID } from 'node:crypto';
import type { BatchResult } from '../schemas/ads.js';
import { TRANSIENT_ITEM_CODES } from '../schemas/ads.js';
import type { ResultRow } from './results.js';
import { errorLine } from '../errors.js';
import { describeProblem } from './row-mapping.js';
import type { SpooledRow } from './spool.js';

export interface Batch {
  items: Array<Record<string, unknown>>;
  campaignId?: string;
  idempotencyKey: string;
}

export interface RunnerOptions {
  rows: AsyncIterable<SpooledRow>;
  batchSize: number;
  concurrency: number;
  send: (batch: Batch) => Promise<BatchResult[]>;
  /** The id field of the resource, to report the id of a failed patch item. */
  idField: string;
  /** Lines that succeeded in an earlier run (--resume), with their ids. */
  alreadyDone?: ReadonlyMap<number, string>;
  /** Aborts on Ctrl-C: no new batch is sent; batches in flight finish. */
  signal: AbortSignal;
  onResult?: (row: ResultRow) => void;
}

const MAX_ITEM_RETRIES = 3;
/** Batches of different campaigns kept open at once before the oldest is sent part-full. */
const MAX_OPEN_BATCHES = 32;

interface Pending {
  seq: number;
  line: number;
  item: Record<string, unknown>;
}

export async function* runBulk(options: RunnerOptions): AsyncGenerator<ResultRow> {
  const done = new Map<number, ResultRow>();
  let nextToYield = 0;
  let seq = 0;
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const settle = (seqNo: number, row: ResultRow) => {
    done.set(seqNo, row);
    options.onResult?.(row);
    notify();
  };
  const open = new Map<string, Pending[]>();

  const dispatch = (key: string) => {
    const rows = open.get(key);
    open.delete(key);
    if (!rows?.length) return;
    if (options.signal.aborted) {
      for (const row of rows) settle(row.seq, interrupted(row.line, idOf(row.item, options.idField)));
      return;
    }
    inFlight++;
    void sendWithItemRetries(options, rows, key === '' ? undefined : key)
      .then((results) => results.forEach((result, i) => settle(rows[i]!.seq, result)))
      .finally(() => {
        inFlight--;
        notify();
      });
  };

  async function* drainReady(): AsyncGenerator<ResultRow> {
    while (done.has(nextToYield)) {
      const row = done.get(nextToYield)!;
      done.delete(nextToYield);
      nextToYield++;
      yield row;
    }
  }

  for await (const row of options.rows) {
    const seqNo = seq++;
    const previous = options.alreadyDone?.get(row.line);
    if ('problem' in row) {
      settle(seqNo, { line: row.line, id: '', result: 'invalid', error_code: 'InvalidRow', error_message: describeProblem(row.problem) });
    } else if (previous !== undefined) {
      settle(seqNo, { line: row.line, id: previous, result: 'skipped', error_code: 'AlreadyApplied', error_message: 'succeeded in an earlier run (--resume)' });
    } else if (options.signal.aborted) {
      settle(seqNo, interrupted(row.line, idOf(row.item, options.idField)));
    } else {
      const key = row.campaignId ?? '';
      const batch = open.get(key) ?? [];
      if (!open.has(key)) {
        if (open.size >= MAX_OPEN_BATCHES) dispatch(open.keys().next().value!);
        open.set(key, batch);
      }
      batch.push({ seq: seqNo, line: row.line, item: row.item });
      if (batch.length >= options.batchSize) dispatch(key);
    }
    yield* drainReady();
    // Back-pressure: at most `concurrency` batches in flight.
    while (inFlight >= options.concurrency) {
      await new Promise<void>((resolve) => (wake = resolve));
      yield* drainReady();
    }
  }
  for (const key of [...open.keys()]) dispatch(key);
  while (nextToYield < seq) {
    if (!done.has(nextToYield)) await new Promise<void>((resolve) => (wake = resolve));
    yield* drainReady();
  }
}

function idOf(item: Record<string, unknown>, idField: string): string {
  return typeof item[idField] === 'string' ? (item[idField] as string) : '';
}

function interrupted(line: number, id: string): ResultRow {
  return { line, id, result: 'skipped', error_code: 'Interrupted', error_message: 'not sent: interrupted before this row was sent' };
}

/** Sends a batch; resends items whose failure is transient (a fresh batch, a fresh key). */
async function sendWithItemRetries(options: RunnerOptions, rows: Pending[], campaignId: string | undefined): Promise<ResultRow[]> {
  const results: ResultRow[] = new Array(rows.length);
  let todo = rows.map((_, i) => i);
  for (let round = 0; todo.length && round <= MAX_ITEM_RETRIES; round++) {
    const items = todo.map((i) => rows[i]!.item);
    let answers: BatchResult[];
    try {
      answers = await options.send({ items, campaignId, idempotencyKey: randomUUID() });
    } catch (error) {
      // The whole request failed after the HTTP core's retries: each row says why.
      const [code, ...rest] = errorLine(error).split(': ');
      for (const i of todo) {
        results[i] = { line: rows[i]!.line, id: idOf(rows[i]!.item, options.idField), result: 'failed', error_code: rest.length ? code! : (error as Error).name, error_message: rest.length ? rest.join(': ') : errorLine(error) };
      }
      return results;
    }
    const again: number[] = [];
    todo.forEach((rowIndex, k) => {
      const answer = answers[k];
      const row = rows[rowIndex]!;
      if (answer && 'success' in answer) {
        results[rowIndex] = { line: row.line, id: answer.success.id, result: 'ok', error_code: '', error_message: '' };
      } else if (answer && TRANSIENT_ITEM_CODES.has(answer.failure.error_code) && round < MAX_ITEM_RETRIES) {
        again.push(rowIndex);
      } else {
        results[rowIndex] = {
          line: row.line,
          id: idOf(row.item, options.idField),
          result: 'failed',
          error_code: answer?.failure.error_code ?? 'MissingResult',
          error_message: answer?.failure.error_message ?? 'the API returned no result for this item',
        };
      }
    });
    todo = again;
  }
  return results;
}
