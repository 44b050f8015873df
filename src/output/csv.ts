// -o csv: the view's columns (the names --from-csv reads), one row per item. With `safe`, a
// cell a spreadsheet would run as a formula (OWASP's CSV injection: it starts with =, +, -,
// @, a tab or a carriage return) starts with a ' instead, which spreadsheets show as text.
// It is not the default for a pipe or a file: --from-csv reads the ' back as part of the
// value, and `list -o csv | patch --from-csv -` must change nothing.
// The dialect (--delimiter, --decimal-comma, or the profile's csv_* settings) is csv-stringify's
// delimiter and, for the columns marked decimal, a comma for the point: what a spreadsheet in
// a comma-decimal locale writes, and what --from-csv with the same two reads back.
import type { CsvDialect } from '../base/csv-dialect.js';
import type { View } from './columns.js';

const FORMULA_START = /^[=+\-@\t\r]/;
/** -5 or +1.5e3 (or -5,5 with a decimal comma) is a number to a spreadsheet, not a formula: left as it is. */
const PLAIN_NUMBER = /^[+-]?(\d+([.,]\d*)?|[.,]\d+)([eE][+-]?\d+)?$/;
/** A decimal as the views write it (1234.56): no grouping, a point. */
const POINT_DECIMAL = /^(-?\d+)\.(\d+)$/;

export function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) && !PLAIN_NUMBER.test(cell) ? `'${cell}` : cell;
}

/** 1234.56 -> 1234,56 (never grouped: 1.234,56 would be read back as well, 1234,56 is what a spreadsheet takes in any case). */
export function withDecimalComma(cell: string): string {
  return cell.replace(POINT_DECIMAL, '$1,$2');
}

/**
 * A UTF-8 BOM starts the output in a comma-decimal dialect (`;` or --decimal-comma), as Excel's
 * "CSV UTF-8" does: without it Excel reads the file in the machine's legacy code page and
 * a name such as Müller comes back changed. --from-csv skips it. (Not on a terminal: `bom`.)
 */
export function spreadsheetBom(dialect: CsvDialect | undefined): string {
  return dialect?.decimalComma || dialect?.delimiter === ';' ? '\uFEFF' : '';
}

export async function csvWriter<T>(
  view: View<T>,
  { safe, dialect, bom = true }: { safe: boolean; dialect?: CsvDialect; bom?: boolean },
): Promise<{ header: string; line: (row: T) => string }> {
  const { stringify } = await import('csv-stringify/sync');
  const columns = view.columns.filter((c) => !c.tableOnly);
  const cell = safe ? (text: string) => neutraliseFormula(text) : (text: string) => text;
  const value = (column: (typeof columns)[number], row: T) => {
    const text = column.csv(row) ?? '';
    return cell(dialect?.decimalComma && column.decimal ? withDecimalComma(text) : text);
  };
  const options = { delimiter: dialect?.delimiter ?? ',' };
  return {
    header: (bom ? spreadsheetBom(dialect) : '') + stringify([columns.map((c) => cell(c.name))], options),
    line: (row) => stringify([columns.map((c) => value(c, row))], options),
  };
}
