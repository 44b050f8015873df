// --dry-run: validate, look up the current values (the patch's merge does), and say per row
// what would change, sending no write. Streams: one chunk of rows in memory at a time.
import { describeChanges, showChanges } from './diff.js';
import { describeProblem } from './row-mapping.js';
import type { MergedRow } from './merge.js';

/**
 * The changes in a person's words (decimals with their currency, short statuses) for the
 * table. A symbol key: JSON and CSV carry `changes`, the exact API values, and not this.
 */
export const SHOWN_CHANGES = Symbol('changes as shown in a table');

export interface DryRunRow {
  line: number;
  id: string;
  result: 'would_create' | 'would_update' | 'unchanged' | 'not_found' | 'invalid' | 'conflict';
  /** `budget.total.amount_e5: 5000000 -> 7550000`: the API's fields and values, exactly. */
  changes: string;
  [SHOWN_CHANGES]?: string;
}

/**
 * Each row as the run would see it: a patch's rows come merged with the current resource
 * (merge.ts; `current` null when not found); a create's rows have none. A patch row that
 * was not merged (Ctrl-C stopped the reads) ends the output there.
 */
export async function* dryRun(chunks: AsyncIterable<MergedRow[]>, idField: string, mode: 'create' | 'patch'): AsyncGenerator<DryRunRow> {
  for await (const rows of chunks) {
    for (const row of rows) {
      // A preview without the current state would guess: the read's failure ends it.
      if ('unread' in row) throw row.unread;
      if (mode === 'patch' && 'item' in row && row.current === undefined) return;
      yield judge(row, idField);
    }
  }
}

function judge(row: Exclude<MergedRow, { unread: Error }>, idField: string): DryRunRow {
  if ('problem' in row) return { line: row.line, id: '', result: 'invalid', changes: describeProblem(row.problem) };
  if ('unchanged' in row) return { line: row.line, id: row.id, result: 'unchanged', changes: '' };
  if ('conflict' in row) return { line: row.line, id: row.id, result: 'conflict', changes: row.conflict };
  if (row.current === undefined)
    return {
      line: row.line,
      id: '',
      result: 'would_create',
      changes: describeChanges(row.item, undefined, idField).join('; '),
      [SHOWN_CHANGES]: showChanges(row.item, undefined, idField).join('; '),
    };
  const id = String(row.item[idField]);
  if (row.current === null) return { line: row.line, id, result: 'not_found', changes: '' };
  const changes = describeChanges(row.item, row.current, idField);
  return {
    line: row.line,
    id,
    result: changes.length ? 'would_update' : 'unchanged',
    changes: changes.join('; '),
    [SHOWN_CHANGES]: showChanges(row.item, row.current, idField).join('; '),
  };
}
