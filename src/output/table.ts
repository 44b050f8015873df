import Table from 'cli-table3';
import { Chalk } from 'chalk';
import stringWidth from 'string-width';
import type { OutputTarget } from '../base/io.js';
import type { Column, View } from './columns.js';

const GAP = 2;
/** A value this wide or narrower is never broken, in any column. */
export const SHORT = 12;
/**
 * A name column gives way to two lines a value, or to this width if that is narrower, before
 * any column is left out: one long name takes a third line rather than hide a column of every row.
 */
const NAME_WIDTH = SHORT + 2;

/**
 * A borderless, aligned table like `gh` prints; bold headers unless colour is off. On a
 * terminal it is fitted to its width (see fitTable): a cell narrower than its value wraps onto
 * more lines of its row, between words where it can; nothing is cut. `wide` (-o wide) shows
 * every column, those only CSV carries too, at their full width. Cells hold no newlines
 * (rows.ts escapes them): every line break in a cell is the table's.
 */
export function renderTable<T>(ctx: OutputTarget, view: View<T>, rows: readonly T[], { wide = false } = {}): string {
  const chalk = new Chalk({ level: ctx.globals.color ? 1 : 0 });
  const columns = view.columns.filter((c) => wide || !c.csvOnly);
  const values = columns.map((c) => rows.map((row) => (c.table ?? c.csv)(row) ?? ''));
  const { shown, widths } = fitTable(
    columns.map((c, i) => ({ header: c.header, kind: c.kind, priority: c.priority, separator: c.separator, values: values[i]! })),
    ctx.io.stdoutIsTTY && !wide ? ctx.io.columns : undefined,
  );
  const table = new Table({
    head: shown.map((i) => chalk.bold(columns[i]!.header)),
    colAligns: shown.map((i) => columns[i]!.align ?? 'left'),
    colWidths: widths,
    wordWrap: false,
    chars: NO_BORDERS,
    style: { head: [], border: [], 'padding-left': 0, 'padding-right': 0 },
  });
  for (let r = 0; r < rows.length; r++) table.push(shown.map((i, s) => wrapCell(values[i]![r]!, widths[s]!, columns[i]!.separator).join('\n')));
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
  priority?: number;
  separator?: Column<unknown>['separator'];
  values: readonly string[];
}

/**
 * Which columns a table shows, and how wide, on a terminal of `terminalColumns` (undefined:
 * not a terminal, so every column at its natural width). Each column has widths it may give
 * way to, in this order (an 'id' column never narrows, and no column narrows below its
 * header or its widest value of up to SHORT characters):
 * 1. 'words' columns to their longest word, 'text' columns to two lines a value (or NAME_WIDTH);
 * 2. then, if the table still does not fit, optional columns are left out, the lowest
 *    priority first, and brought back, the most important first, while they fit (step 1 again);
 * 3. 'text' and unmarked columns to their longest word (more lines);
 * 4. every column but ids down to its floor, breaking long words.
 * What is left is a line wider than the terminal, ids and headers whole.
 */
export function fitTable(columns: readonly FitColumn[], terminalColumns: number | undefined): { shown: number[]; widths: number[] } {
  const all = columns.map((_c, i) => i);
  const natural = columns.map((c) => Math.max(stringWidth(c.header), most(c.values, stringWidth)));
  if (!terminalColumns || total(natural) <= terminalColumns) return { shown: all, widths: natural };
  const floor = columns.map((c, i) => (c.kind === 'id' ? natural[i]! : Math.max(stringWidth(c.header), most(c.values, shortWidth))));
  const wordFloor = columns.map((c, i) =>
    c.kind === 'id'
      ? natural[i]!
      : Math.max(
          floor[i]!,
          Math.min(
            natural[i]!,
            most(c.values, (value) => longestWord(value, c.separator)),
          ),
        ),
  );
  // The width each column may take before any column is left out.
  const settled = columns.map((c, i) => {
    if (c.kind === 'words') return wordFloor[i]!;
    if (c.kind === 'text') return Math.max(wordFloor[i]!, twoLineWidth(c.values, wordFloor[i]!, Math.min(natural[i]!, NAME_WIDTH), c.separator));
    return natural[i]!;
  });
  const fits = (shown: readonly number[]) => total(shown.map((i) => settled[i]!)) <= terminalColumns;

  let shown = all;
  const priorities = [...new Set(columns.flatMap((c) => (c.priority === undefined ? [] : [c.priority])))].sort((a, b) => a - b);
  const dropped: number[] = [];
  for (const priority of priorities) {
    if (fits(shown)) break;
    dropped.unshift(priority);
    shown = shown.filter((i) => columns[i]!.priority !== priority);
  }
  for (const priority of dropped) {
    const back = all.filter((i) => shown.includes(i) || columns[i]!.priority === priority);
    if (fits(back)) shown = back;
  }

  let widths = shown.map((i) => natural[i]!);
  for (const stage of [settled, wordFloor, floor])
    widths = shrink(
      widths,
      shown.map((i) => stage[i]!),
      terminalColumns,
    );
  return { shown, widths };
}

const total = (widths: readonly number[]) => widths.reduce((a, b) => a + b, 0) + GAP * (widths.length - 1);

/** Narrows the widest column that can still give way, one cell at a time, until the table fits or none can give more. */
function shrink(start: readonly number[], floor: readonly number[], terminalColumns: number): number[] {
  const widths = [...start];
  let excess = total(widths) - terminalColumns;
  while (excess > 0) {
    let widest = -1;
    widths.forEach((w, i) => {
      if (w > floor[i]! && (widest === -1 || w > widths[widest]!)) widest = i;
    });
    if (widest === -1) break;
    widths[widest]!--;
    excess--;
  }
  return widths;
}

/** The largest `measure` of the values (0 for none); a loop, as a table may have more rows than a call has arguments. */
function most(values: readonly string[], measure: (value: string) => number): number {
  let largest = 0;
  for (const value of values) largest = Math.max(largest, measure(value));
  return largest;
}

const shortWidth = (value: string) => (stringWidth(value) <= SHORT ? stringWidth(value) : 0);
const words = (text: string) => text.split(' ').filter((word) => word !== '');
/** A list's items, each but the last with its separator's mark ("Time $2.06,"): joined by spaces, the list again. */
const items = (text: string, separator: string) => {
  const parts = text.split(separator);
  return parts.map((part, i) => (i < parts.length - 1 ? `${part}${separator.trimEnd()}` : part)).filter((item) => item !== '');
};
/** What a line may break between: words, or a list's items. */
const pieces = (text: string, separator?: string) => (separator ? items(text, separator) : words(text));
const longestWord = (text: string, separator?: string) => Math.max(0, ...pieces(text, separator).map((word) => stringWidth(word)));

/** The narrowest width, from `from` up to `to` (at most), at which every value wraps onto at most two lines. */
function twoLineWidth(values: readonly string[], from: number, to: number, separator?: string): number {
  let width = from;
  for (const value of values) {
    if (width >= to) return Math.max(from, to);
    if (stringWidth(value) <= width) continue;
    let low = Math.max(width, Math.ceil(stringWidth(value) / 2));
    while (low < to && wrapCell(value, low, separator).length > 2) low++;
    width = Math.min(low, Math.max(from, to));
  }
  return width;
}

/**
 * A cell's lines at `width`: the value whole when it fits; else wrapped between words (a list's
 * items, with a `separator`: an item wider than the cell between its words), a word wider than
 * the cell broken between its characters (by display width: 寿 takes two cells).
 */
export function wrapCell(value: string, width: number, separator?: string): string[] {
  if (stringWidth(value) <= width) return [value];
  const lines: string[] = [];
  let line = '';
  for (const word of pieces(value, separator)) {
    const joined = line === '' ? word : `${line} ${word}`;
    if (stringWidth(joined) <= width) {
      line = joined;
      continue;
    }
    if (line !== '') lines.push(line);
    line = '';
    if (separator) {
      const wrapped = wrapCell(word, width);
      lines.push(...wrapped.slice(0, -1));
      line = wrapped.at(-1) ?? '';
      continue;
    }
    for (const { segment } of new Intl.Segmenter().segment(word)) {
      if (line !== '' && stringWidth(line + segment) > width) {
        lines.push(line);
        line = '';
      }
      line += segment;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
