// The one place that decides how rows leave the program: a table on a TTY, JSON when
// piped (or -o json), NDJSON or CSV on request. JSON/NDJSON carry the API's raw objects;
// CSV and tables use the view's columns. Everything but the table streams.
import type { Context } from '../context.js';
import type { View } from './columns.js';
import { resolveFormat } from './format.js';
import { escapeControls } from './terminal-text.js';
import { ChunkedWriter, write } from '../stream-write.js';

export async function writeRows<T>(ctx: Context, shownView: View<T>, rows: AsyncIterable<T> | Iterable<T>): Promise<number> {
  if (ctx.globals.query !== undefined) return writeQueried(ctx, ctx.globals.query, rows);
  const format = resolveFormat(ctx);
  const view = ctx.io.stdoutIsTTY ? escapedView(shownView) : shownView;
  let count = 0;
  if (format === 'table') {
    const buffered: T[] = [];
    for await (const row of rows) buffered.push(row);
    count = buffered.length;
    if (count === 0) {
      ctx.info(`No ${view.noun} found.`);
    } else {
      const { renderTable } = await import('./table.js');
      await write(ctx.io.stdout, renderTable(ctx, view, buffered));
    }
    return count;
  }
  // Streamed, in chunks; what was written before a failure still goes out.
  const out = new ChunkedWriter(ctx.io.stdout, { delayMs: 50 });
  try {
    let text: (row: T) => string;
    if (format === 'json') {
      text = (row) => `${count === 0 ? '[\n' : ',\n'}${indent(JSON.stringify(row, null, 2))}`;
    } else if (format === 'ndjson') {
      text = (row) => `${JSON.stringify(row)}\n`;
    } else {
      const { stringify } = await import('csv-stringify/sync');
      const columns = view.columns.filter((c) => !c.tableOnly);
      await out.write(stringify([columns.map((c) => c.name)]));
      text = (row) => stringify([columns.map((c) => c.csv(row) ?? '')]);
    }
    for await (const row of rows) {
      // Most writes only gather into the chunk; an await of nothing would still cost a turn per row.
      const wait = out.write(text(row));
      if (wait) await wait;
      count++;
    }
    if (format === 'json') await out.write(count === 0 ? '[]\n' : '\n]\n');
  } finally {
    await out.end();
  }
  return count;
}

/** Prints one object (e.g. `auth status` of one profile) in the chosen format. */
export async function writeObject<T>(ctx: Context, view: View<T>, row: T): Promise<void> {
  if (ctx.globals.query !== undefined) {
    await writeQueried(ctx, ctx.globals.query, row, true);
    return;
  }
  const format = resolveFormat(ctx);
  if (format === 'json') await write(ctx.io.stdout, `${JSON.stringify(row, null, 2)}\n`);
  else await writeRows(ctx, view, [row]);
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

/** The view with every cell's control characters escaped (for a terminal; JSON escapes its own). */
function escapedView<T>(view: View<T>): View<T> {
  const escape = (text: string | undefined) => (text === undefined ? undefined : escapeControls(text));
  return {
    ...view,
    columns: view.columns.map((column) => {
      const { table } = column;
      return { ...column, csv: (row: T) => escape(column.csv(row)), table: table && ((row: T) => escape(table(row))) };
    }),
  };
}

/** --query: every row first (all pages merged), then the expression, then the chosen format. */
async function writeQueried(ctx: Context, expression: string, rows: unknown, single = false): Promise<number> {
  const { resultRows, resultView, runQuery } = await import('./query.js');
  let input: unknown = rows;
  if (!single) {
    const all: unknown[] = [];
    for await (const row of rows as AsyncIterable<unknown>) all.push(row);
    input = all;
  }
  const result = await runQuery(expression, input);
  const format = resolveFormat(ctx);
  if (format === 'json') {
    await write(ctx.io.stdout, `${JSON.stringify(result, null, 2)}\n`);
    return resultRows(result).length;
  }
  const out = resultRows(result);
  return writeRows({ ...ctx, globals: { ...ctx.globals, query: undefined } }, resultView(out), out);
}
