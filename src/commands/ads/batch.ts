// Sends validated items in batches and prints one result per item.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../context.js';
import { EXIT } from '../../errors.js';
import type { BatchOptions } from '../../api/ads.js';
import type { BatchResult } from '../../schemas/ads.js';
import { writeRows } from '../../output/rows.js';
import { resultView, type ResultRow } from '../../output/views/results.js';

export type SendBatch<T> = (items: T[], options: BatchOptions) => Promise<BatchResult[]>;

/** Submits `items` in batches (each with its own idempotency key), prints results, returns the exit code. */
export async function submitAndReport<T>(
  ctx: Context,
  items: T[],
  positions: number[],
  batchSize: number,
  send: SendBatch<T>,
  idOf: (item: T) => string | undefined,
): Promise<number> {
  const rows: ResultRow[] = [];
  for (let start = 0; start < items.length; start += batchSize) {
    const batch = items.slice(start, start + batchSize);
    const results = await send(batch, { idempotencyKey: randomUUID(), signal: ctx.signal });
    batch.forEach((item, i) => {
      const result = results[i];
      const line = positions[start + i]!;
      if (result && 'success' in result) rows.push({ line, id: result.success.id, result: 'ok', error_code: '', error_message: '' });
      else rows.push({
        line,
        id: idOf(item) ?? '',
        result: 'failed',
        error_code: result?.failure.error_code ?? 'MissingResult',
        error_message: result?.failure.error_message ?? 'the API returned no result for this item',
      });
    });
  }
  await writeRows(ctx, resultView, rows);
  const failed = rows.filter((r) => r.result !== 'ok').length;
  if (failed) ctx.info(`${failed} of ${rows.length} failed`);
  return failed ? EXIT.failure : EXIT.ok;
}
