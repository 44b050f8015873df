import Table from 'cli-table3';
import { Chalk } from 'chalk';
import type { Context } from '../context.js';
import type { View } from './columns.js';

/** A borderless, aligned table like `gh` prints; bold headers unless colour is off. */
export function renderTable<T>(ctx: Context, view: View<T>, rows: readonly T[]): string {
  const chalk = new Chalk({ level: ctx.globals.color ? 1 : 0 });
  const columns = view.columns.filter((c) => !c.csvOnly);
  const cells = rows.map((row) => columns.map((c) => (c.table ?? c.csv)(row) ?? ''));
  const widths = fitWidths(
    columns.map((c, i) => Math.max(c.header.length, ...cells.map((r) => displayWidth(r[i]!)))),
    ctx.io.stdoutIsTTY ? ctx.io.columns : undefined,
  );
  const table = new Table({
    head: columns.map((c) => chalk.bold(c.header)),
    colAligns: columns.map((c) => c.align ?? 'left'),
    ...(widths ? { colWidths: widths, wordWrap: false, truncate: '…' } : {}),
    chars: {
      top: '',
      'top-mid': '',
      'top-left': '',
      'top-right': '',
      bottom: '',
      'bottom-mid': '',
      'bottom-left': '',
      'bottom-right': '',
      left: '',
      'left-mid': '',
      mid: '',
      'mid-mid': '',
      right: '',
      'right-mid': '',
      middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const row of cells) table.push(row);
  // cli-table3 pads the last column too; a terminal table should not end lines in spaces.
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

const GAP = 2;
/** Narrowest a shrunk column gets: enough to recognise an id or a name. */
const MIN_WIDTH = 5;

const displayWidth = (text: string) => [...text].length;

/**
 * Column widths that fit a terminal of `columns`: the widest columns give way first, down to
 * MIN_WIDTH, and their text ends with an ellipsis (as gh does). Undefined: no terminal, or
 * the table fits as it is.
 */
export function fitWidths(natural: number[], columns: number | undefined): number[] | undefined {
  if (!columns) return undefined;
  const widths = [...natural];
  const total = () => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);
  if (total() <= columns) return undefined;
  while (total() > columns) {
    const widest = widths.indexOf(Math.max(...widths));
    if (widths[widest]! <= MIN_WIDTH) break;
    widths[widest]!--;
  }
  return widths;
}
