import type { View } from '../columns.js';

/** One result per submitted item (bulk input line, or JSON item). */
export interface ResultRow {
  line: number;
  id: string;
  result: 'ok' | 'failed' | 'invalid' | 'skipped';
  error_code: string;
  error_message: string;
}

export const resultView: View<ResultRow> = {
  noun: 'results',
  columns: [
    { header: 'LINE', name: 'line', csv: (r) => String(r.line) },
    { header: 'ID', name: 'id', csv: (r) => r.id },
    { header: 'RESULT', name: 'result', csv: (r) => r.result },
    { header: 'ERROR', name: 'error_code', csv: (r) => r.error_code },
    { header: 'MESSAGE', name: 'error_message', csv: (r) => r.error_message },
  ],
};
