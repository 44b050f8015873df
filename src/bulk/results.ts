/** One result per submitted row (bulk input line, or JSON item). */
export interface ResultRow {
  line: number;
  id: string;
  result: 'ok' | 'unchanged' | 'failed' | 'invalid' | 'skipped';
  error_code: string;
  error_message: string;
}
