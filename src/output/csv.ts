// -o csv: the view's columns (the names --from-csv reads), one row per item. With `safe`, a
// cell a spreadsheet would run as a formula (OWASP's CSV injection: it starts with =, +, -,
// @, a tab or a carriage return) starts with a ' instead, which spreadsheets show as text.
// It is not the default for a pipe or a file: --from-csv reads the ' back as part of the
// value, and `list -o csv | patch --from-csv -` must change nothing.
import type { View } from './columns.js';

const FORMULA_START = /^[=+\-@\t\r]/;
/** -5 or +1.5e3 is a number to a spreadsheet, not a formula: left as it is. */
const PLAIN_NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

export function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

export async function csvWriter<T>(view: View<T>, { safe }: { safe: boolean }): Promise<{ header: string; line: (row: T) => string }> {
  const { stringify } = await import('csv-stringify/sync');
  const columns = view.columns.filter((c) => !c.tableOnly);
  const cell = safe ? (text: string) => neutraliseFormula(text) : (text: string) => text;
  return {
    header: stringify([columns.map((c) => cell(c.name))]),
    line: (row) => stringify([columns.map((c) => cell(c.csv(row) ?? ''))]),
  };
}
