// --dry-run: validate, look up the current values (the patch's merge does), and say per row
// what would change, sending no write. Streams: one chunk of rows in memory at a time.
import { describeChanges, showChanges } from '../changes/diff.js';
import { describeProblem } from '../input/row-mapping.js';
import type { MergedRow } from '../changes/merge.js';
import { rowCount, type ResultRow } from '../results.js';
import type { RowIdentity } from '../row-identity.js';

/**
 * The changes in a person's words (decimals with their currency, short statuses) for the
 * table. A symbol key: JSON and CSV carry `changes`, the exact API values, and not this.
 */
export const SHOWN_CHANGES = Symbol('changes as shown in a table');

export interface DryRunRow {
  line: number;
  id: string;
  /** `skipped`, `failed`: settled by the earlier run a resumed run goes on with (not sent again). */
  result: 'would_create' | 'would_update' | 'unchanged' | 'not_found' | 'invalid' | 'conflict' | 'skipped' | 'failed';
  /** `budget.total.amount_e5: 5000000 -> 7550000`: the API's fields and values, exactly. */
  changes: string;
  [SHOWN_CHANGES]?: string;
}

/** Rows by what the run would do with them. */
export type DryRunCounts = Partial<Record<DryRunRow['result'], number>>;

/** The rows, passed through, each counted by its result in `counts`. */
export async function* counted(rows: AsyncIterable<DryRunRow>, counts: DryRunCounts): AsyncGenerator<DryRunRow> {
  for await (const row of rows) {
    counts[row.result] = (counts[row.result] ?? 0) + 1;
    yield row;
  }
}

const IN_WORDS: Array<[DryRunRow['result'], string]> = [
  ['would_create', 'would create'],
  ['would_update', 'would update'],
  ['unchanged', 'unchanged'],
  ['skipped', 'done earlier'],
  ['failed', 'failed earlier'],
  ['conflict', 'conflict'],
  ['not_found', 'not found'],
  ['invalid', 'invalid'],
];

/** The results that a real run would report failed or invalid (exit 1). */
const FAILING = new Set<DryRunRow['result']>(['failed', 'conflict', 'not_found', 'invalid']);

/** `134 would update, 66 invalid`: the counts of `results`, in the order a run's summary gives them. */
function countsInWords(counts: DryRunCounts, results: (result: DryRunRow['result']) => boolean = () => true): string {
  return IN_WORDS.filter(([result]) => counts[result] && results(result))
    .map(([result, words]) => `${counts[result]} ${words}`)
    .join(', ');
}

/** `200 rows: 134 would update, 66 invalid (dry run: nothing sent)`. */
export function previewLine(counts: DryRunCounts): string {
  const total = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return `${rowCount(total)}: ${countsInWords(counts) || 'none'} (dry run: nothing sent)`;
}

/** Why the run would exit 1, foretold (`66 of 200 rows would not be applied (66 invalid)`); undefined when it would not. */
export function wouldFail(counts: DryRunCounts, rows: number): string | undefined {
  const failing = [...FAILING].reduce((sum, result) => sum + (counts[result] ?? 0), 0);
  if (!failing) return undefined;
  const which = countsInWords(counts, (result) => FAILING.has(result));
  return rows === 1 ? `the row would not be applied (${which.replace(/^1 /, '')})` : `${failing} of ${rows} rows would not be applied (${which})`;
}

/**
 * Each row as the run would see it: a patch's rows come merged with the current resource
 * (merge.ts; `current` null when not found); a create's rows have none. A patch row that
 * was not merged (Ctrl-C stopped the reads) ends the output there. `earlier`: a resumed run
 * reports a row an earlier run settled as that run did, without sending it (runner.ts).
 */
export async function* dryRun(
  chunks: AsyncIterable<MergedRow[]>,
  idField: string,
  mode: 'create' | 'patch',
  earlier: (row: RowIdentity & { line: number }) => ResultRow | undefined = () => undefined,
): AsyncGenerator<DryRunRow> {
  for await (const rows of chunks) {
    for (const row of rows) {
      const settled = 'key' in row ? earlier(row) : undefined;
      if (settled) {
        yield asSettled(settled);
        continue;
      }
      // A preview without the current state would guess: the read's failure ends it.
      if ('unread' in row) throw row.unread;
      if (mode === 'patch' && 'item' in row && row.current === undefined) return;
      yield judge(row, idField);
    }
  }
}

function asSettled(row: ResultRow): DryRunRow {
  // (an earlier success comes as skipped, AlreadyApplied: `ok` only narrows the type)
  const result = row.result === 'ok' ? 'skipped' : row.result;
  return {
    line: row.line,
    id: row.id,
    result,
    changes: row.error_code && row.result !== 'skipped' ? `${row.error_code}: ${row.error_message}` : row.error_message,
  };
}

function judge(row: Exclude<MergedRow, { unread: Error }>, idField: string): DryRunRow {
  if ('problem' in row) return { line: row.line, id: row.id ?? '', result: 'invalid', changes: describeProblem(row.problem) };
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
