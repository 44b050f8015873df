import Table from 'cli-table3';
import { Chalk } from 'chalk';
import type { Context } from '../context.js';
import type { View } from './columns.js';

/** A borderless, aligned table like `gh` prints; bold headers unless colour is off. */
export function renderTable<T>(ctx: Context, view: View<T>, rows: readonly T[]): string {
  const chalk = new Chalk({ level: ctx.globals.color ? 1 : 0 });
  const columns = view.columns.filter((c) => !c.csvOnly);
  const table = new Table({
    head: columns.map((c) => chalk.bold(c.header)),
    chars: {
      top: '', 'top-mid': '', 'top-left': '', 'top-right': '', bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
      left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '', middle: '  ',
    },
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (const row of rows) table.push(columns.map((c) => (c.table ?? c.csv)(row) ?? ''));
  // cli-table3 pads the last column too; a terminal table should not end lines in spaces.
  return `${table.toString().split('\n').map((line) => line.trimEnd()).join('\n')}\n`;
}
