// Some patch rows can be judged only against the resource as it is now: an amount without a
// currency takes the resource's (a resource with no budget has none), an amount's currency
// must be the resource's, a budget unit alone keeps the current amount, `ad_product` must
// stay. A bulk patch with such rows reads them once before it sends anything, so that one
// of them at fault refuses the run (exit 2, nothing sent) as a row at fault in itself does,
// instead of turning up only as its chunk is merged, after earlier batches went out.
import type { z } from 'zod';
import type { CurrentLookup } from './current.js';
import { mergeWithCurrent } from './merge.js';
import type { IdentifiedRow, RowIdentity } from '../row-identity.js';
import type { RowProblem } from '../input/row-mapping.js';
import type { SpooledRow } from '../spool.js';

type ValidRow = Exclude<SpooledRow, { problem: unknown }>;

/** Whether the row can be judged only against the current resource (see above). */
export function judgedAgainstCurrent(row: ValidRow): boolean {
  if (row.partial !== undefined) return true;
  const { budget, bidding } = row.item as { budget?: { total?: unknown }; bidding?: { manual?: { bid_amount?: unknown } } };
  return budget?.total !== undefined || bidding?.manual?.bid_amount !== undefined;
}

export interface StateProblem extends RowProblem {
  line: number;
  unit: 'line' | 'item';
  id: string;
}

/**
 * The problems of the rows judged against the current resources (read by `lookup`): how many,
 * and the first `shown` of them (every row may be at fault, in an input of millions). A read
 * that failed for good ends the check with its error as `unread` (nothing has been sent), by
 * the merge's own rule of which failures leave rows unsent. Stops early when `signal` aborts.
 */
export async function stateProblems(
  chunks: AsyncIterable<IdentifiedRow[]>,
  options: {
    idField: string;
    schema: z.ZodType;
    lookup: CurrentLookup;
    signal: AbortSignal;
    shown: number;
    /** Rows a resumed run reports from the earlier run, unsent: not judged (their resource may have changed since, by design). */
    settled: (row: RowIdentity & { line: number }) => boolean;
  },
): Promise<{ count: number; first: StateProblem[]; unread?: Error }> {
  const { idField, schema, lookup, signal, shown, settled } = options;
  const first: StateProblem[] = [];
  let count = 0;
  for await (const rows of mergeWithCurrent(judgedRows(chunks, settled), idField, schema, lookup, signal)) {
    if (signal.aborted) break;
    for (const row of rows) {
      if ('unread' in row) return { count, first, unread: row.unread };
      if (!('problem' in row)) continue;
      if (count++ < shown) first.push({ ...row.problem, line: row.line, unit: row.unit ?? 'line', id: row.id ?? '' });
    }
  }
  return { count, first };
}

/** Only the rows that need the current state and will be sent: the others cost no read. */
async function* judgedRows(chunks: AsyncIterable<IdentifiedRow[]>, settled: (row: RowIdentity & { line: number }) => boolean): AsyncGenerator<IdentifiedRow[]> {
  for await (const chunk of chunks) {
    const rows = chunk.filter((row) => !('problem' in row) && judgedAgainstCurrent(row) && !settled(row));
    if (rows.length) yield rows;
  }
}
