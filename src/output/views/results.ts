import { SHOWN_CHANGES, type DryRunRow } from '../../bulk/plan/dry-run.js';
import type { ResultRow } from '../../bulk/results.js';
import type { Column, View } from '../columns.js';

export const resultView: View<ResultRow> = {
  noun: 'results',
  columns: [
    { header: 'LINE', name: 'line', csv: (r) => String(r.line) },
    { header: 'ID', name: 'id', csv: (r) => r.id, kind: 'id' },
    { header: 'RESULT', name: 'result', csv: (r) => r.result, kind: 'id' },
    { header: 'ERROR', name: 'error_code', csv: (r) => r.error_code, kind: 'id' },
    { header: 'MESSAGE', name: 'error_message', csv: (r) => r.error_message, kind: 'words' },
  ],
};

/** `--dry-run`: what each row would change. */
export const dryRunView: View<DryRunRow> = {
  noun: 'rows',
  columns: [
    { header: 'LINE', name: 'line', csv: (r) => String(r.line) },
    { header: 'ID', name: 'id', csv: (r) => r.id, kind: 'id' },
    { header: 'RESULT', name: 'result', csv: (r) => r.result, kind: 'id' },
    changesColumn<DryRunRow>(),
  ],
};

/**
 * A row's changes: in tables and -o text in a person's words (50.00 USD -> 75.50 USD, active ->
 * paused); in CSV and JSON exactly as the API has them.
 */
export function changesColumn<T extends { changes: string; [SHOWN_CHANGES]?: string }>(): Column<T> {
  return {
    header: 'CHANGES',
    name: 'changes',
    csv: (r) => r.changes,
    table: (r) => r[SHOWN_CHANGES] ?? r.changes,
    text: (r) => r[SHOWN_CHANGES] ?? r.changes,
    kind: 'words',
  };
}
