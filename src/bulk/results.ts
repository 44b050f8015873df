/** One result per submitted row (bulk input line, or JSON item). */
export interface ResultRow {
  line: number;
  id: string;
  /** `conflict`: not sent, the resource changed since the plan (or the run being undone) was made. */
  result: 'ok' | 'unchanged' | 'failed' | 'invalid' | 'skipped' | 'conflict';
  error_code: string;
  error_message: string;
}

/** `1 row`, `2 rows`. */
export function rowCount(n: number): string {
  return `${n} row${n === 1 ? '' : 's'}`;
}
