// -o text: for scripts, as aws CLI's text output. One line per item, its values separated
// by tabs, no header (on a terminal either: the table is for reading). A value's own
// backslashes, tabs, newlines and carriage returns are written as \\ \t \n \r, so every
// item stays one line and `cut -f` counts right. A string or number is written raw:
// `ID=$(platform ... --query '[0].id' -o text)` gives the bare id.
import type { View } from './columns.js';
import { escapeControls } from './terminal-text.js';

const STRUCTURE = /[\\\t\n\r]/g;
const ESCAPED: Readonly<Record<string, string>> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One value as a field of a text line: on a terminal, control and bidi characters escaped too. */
export function textField(text: string, isTTY: boolean): string {
  const flat = text.replace(STRUCTURE, (c) => ESCAPED[c]!);
  return isTTY ? escapeControls(flat) : flat;
}

/**
 * A row of a view: the table's columns, in its order, with their exact (CSV) values, but
 * money as a decimal with its currency ("455.00 USD"), as the table shows it: a CURRENCY
 * column beside an amount is CSV's alone.
 */
export function viewTextLine<T>(view: View<T>, isTTY: boolean): (row: T) => string {
  const columns = view.columns.filter((c) => !c.csvOnly);
  return (row) => `${columns.map((c) => textField((c.text ?? c.csv)(row) ?? c.table?.(row) ?? '', isTTY)).join('\t')}\n`;
}

/** Any JSON value: a scalar raw, an array's elements or an object's values tab-separated, nested values as compact JSON. */
export function valueTextLine(value: unknown, isTTY: boolean): string {
  const fields = Array.isArray(value) ? value : value !== null && typeof value === 'object' ? Object.values(value) : [value];
  return `${fields.map((field) => textField(scalarText(field), isTTY)).join('\t')}\n`;
}

function scalarText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}
