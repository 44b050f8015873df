import Table from 'cli-table3';
import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import type { OutputTarget } from '../base/io.js';
import type { Column, View } from './columns.js';

const GAP = 2;
/** Narrowest a shrunk column gets: enough to recognise a name. */
const MIN_WIDTH = 5;

/** The widest word: a column that wraps between words is never narrower. */
const longestWord = (text: string) => Math.max(0, ...text.split(' ').map((word) => stringWidth(word)));

/**
 * A borderless, aligned table like `gh` prints; bold headers unless colour is off. On a
 * terminal it is fitted to its width (see fitTable): cli-table3 cuts 'text' cells with an
 * ellipsis and wraps 'words' cells between words. `wide` (-o wide) shows every column, those
 * only CSV carries too, and cuts none. Cells hold no newlines (rows.ts escapes them).
 */
export function renderTable<T>(ctx: OutputTarget, view: View<T>, rows: readonly T[], { wide = false } = {}): string {
  const chalk = new Chalk({ level: ctx.globals.color ? 1 : 0 });
  const columns = view.columns.filter((c) => wide || !c.csvOnly);
  const values = columns.map((c) => rows.map((row) => (c.table ?? c.csv)(row) ?? ''));
  const { shown, widths } = fitTable(
    columns.map((c, i) => ({ header: c.header, kind: c.kind, optional: c.optional, values: values[i]! })),
    ctx.io.stdoutIsTTY && !wide ? ctx.io.columns : undefined,
  );
  const table = new Table({
    head: shown.map((i) => chalk.bold(columns[i]!.header)),
    colAligns: shown.map((i) => columns[i]!.align ?? 'left'),
    colWidths: widths,
    wordWrap: false,
    truncate: '…',
    chars: NO_BORDERS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (let r = 0; r < rows.length; r++)
    table.push(shown.map((i) => (columns[i]!.kind === 'words' ? { content: values[i]![r]!, wordWrap: true, wrapOnWordBoundary: true } : values[i]![r]!)));
  // cli-table3 pads the last column too; a terminal table should not end lines in spaces.
  return `${table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n')}\n`;
}

const NO_BORDERS = {
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
  middle: ' '.repeat(GAP),
};

export interface FitColumn {
  header: string;
  kind?: Column<unknown>['kind'];
  optional?: boolean;
  values: readonly string[];
}

/**
 * Which columns a table shows, and how wide, on a terminal of `terminalColumns` (undefined:
 * not a terminal, so every column at its natural width). When the table is too wide:
 * 1. 'text' and 'words' columns give way, the widest first ('text' down to MIN_WIDTH,
 *    'words' down to their longest word);
 * 2. optional columns are left out, the rightmost first (each time the others start again
 *    from their natural widths);
 * 3. unmarked columns are cut too, down to MIN_WIDTH;
 * 4. 'id' columns never give way: what is left is a line wider than the terminal.
 */
export function fitTable(columns: readonly FitColumn[], terminalColumns: number | undefined): { shown: number[]; widths: number[] } {
  const natural = columns.map((c) => Math.max(stringWidth(c.header), ...c.values.map((value) => stringWidth(value))));
  const floor = columns.map((c, i) => {
    if (c.kind === 'id') return natural[i]!;
    if (c.kind === 'words') return Math.min(natural[i]!, Math.max(stringWidth(c.header), ...c.values.map(longestWord)));
    return Math.min(natural[i]!, MIN_WIDTH);
  });
  const all = columns.map((_c, i) => i);
  if (!terminalColumns) return { shown: all, widths: natural };
  const optional = all.filter((i) => columns[i]!.optional).reverse();
  const tierOne = (i: number) => columns[i]!.kind === 'text' || columns[i]!.kind === 'words';
  let shown = all;
  let widths = natural;
  for (let dropped = 0; dropped <= optional.length; dropped++) {
    const left = new Set(optional.slice(0, dropped));
    shown = all.filter((i) => !left.has(i));
    widths = shrink(
      shown.map((i) => natural[i]!),
      shown.map((i) => floor[i]!),
      shown.map(tierOne),
      terminalColumns,
    );
    if (total(widths) <= terminalColumns) return { shown, widths };
  }
  widths = shrink(
    widths,
    shown.map((i) => floor[i]!),
    shown.map((i) => columns[i]!.kind !== 'id'),
    terminalColumns,
  );
  return { shown, widths };
}

const total = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);

/** Narrows the widest eligible column, one cell at a time, until the table fits or none can give more. */
function shrink(start: readonly number[], floor: readonly number[], eligible: readonly boolean[], terminalColumns: number): number[] {
  const widths = [...start];
  let excess = total(widths) - terminalColumns;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (eligible[i] && w > floor[i]! && (widest === -1 || w > widths[widest]!)) widest = i;
    });
    if (widest === -1) break;
    widths[widest]!--;
    excess--;
  }
  return widths;
}
