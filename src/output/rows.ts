// The one place that decides how rows leave the program: a table on a TTY, JSON when
// piped (or -o json), NDJSON, CSV or text on request. JSON/NDJSON carry the API's raw
// objects; CSV, text and tables use the view's columns. Everything but the table streams.
// On a terminal, nothing a server or a file sent can act on it: control and bidi characters
// are shown escaped in every format; to a pipe or a file, JSON, NDJSON and CSV stay exact.
import type { OutputTarget } from '../base/io.js';
import type { View } from './columns.js';
import { resolveFormat } from './format.js';
import { escapeControls, escapeInline, jsonForStream } from './terminal-text.js';
import { ChunkedWriter, write } from '../base/stream-write.js';

export async function writeRows<T>(ctx: OutputTarget, view: View<T>, rows: AsyncIterable<T> | Iterable<T>): Promise<number> {
  const { fields } = ctx.globals;
  // --json FIELDS: the first row says which fields there are (ads lists check and pick before: ads/list.ts).
  if (fields?.length) return writeRows(withoutFields(ctx), view, (await import('./pick-fields.js')).pickRows(rows, fields, { noun: view.noun }));
  if (ctx.globals.query !== undefined) return writeQueried(ctx, ctx.globals.query, rows);
  const format = resolveFormat(ctx);
  const isTTY = ctx.io.stdoutIsTTY;
  let count = 0;
  if (format === 'table' || format === 'wide') {
    const buffered: T[] = [];
    for await (const row of rows) buffered.push(row);
    count = buffered.length;
    if (count === 0) {
      ctx.info(`No ${view.noun} found.`);
    } else if (ctx.globals.accessible) {
      // Accessible mode: `Header: value` records, which a screen reader reads in order.
      const { renderRecords } = await import('./records.js');
      await write(ctx.io.stdout, renderRecords(escapedView(view, escapeInline), buffered, { wide: format === 'wide' }));
    } else {
      const { renderTable } = await import('./table.js');
      // A table's cells are one line each, whatever a value holds, piped or not.
      await write(ctx.io.stdout, renderTable(ctx, escapedView(view, escapeInline), buffered, { wide: format === 'wide' }));
    }
    return count;
  }
  // Streamed, in chunks; what was written before a failure still goes out.
  const out = new ChunkedWriter(ctx.io.stdout, { delayMs: 50 });
  try {
    let text: (row: T) => string;
    if (format === 'json') {
      text = (row) => `${count === 0 ? '[\n' : ',\n'}${indent(jsonForStream(JSON.stringify(row, null, 2), isTTY))}`;
    } else if (format === 'ndjson') {
      text = (row) => `${jsonForStream(JSON.stringify(row), isTTY)}\n`;
    } else if (format === 'text') {
      const { valueTextLine, viewTextLine } = await import('./text.js');
      text = view.columns.length ? viewTextLine(view, isTTY) : (row) => valueTextLine(row, isTTY);
    } else {
      const { csvWriter } = await import('./csv.js');
      const csv = await csvWriter(isTTY ? escapedView(view, escapeControls) : view, {
        safe: isTTY || Boolean(ctx.globals.safeCsv),
        dialect: ctx.globals.csv,
        bom: !isTTY,
      });
      await out.write(csv.header);
      text = csv.line;
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
export async function writeObject<T>(ctx: OutputTarget, view: View<T>, row: T): Promise<void> {
  const { fields } = ctx.globals;
  if (fields?.length) {
    const { checkPicked, pick } = await import('./pick-fields.js');
    checkPicked(row, fields, view.noun);
    return writeObject(withoutFields(ctx), view, pick(row, fields) as T);
  }
  if (ctx.globals.query !== undefined) {
    await writeQueried(ctx, ctx.globals.query, row, true);
    return;
  }
  const format = resolveFormat(ctx);
  if (format === 'json') await write(ctx.io.stdout, `${jsonForStream(JSON.stringify(row, null, 2), ctx.io.stdoutIsTTY)}\n`);
  else await writeRows(ctx, view, [row]);
}

/** The target once --json FIELDS has been applied to the rows. */
export function withoutFields<C extends OutputTarget>(ctx: C): C {
  return { ...ctx, globals: { ...ctx.globals, fields: undefined } };
}

/** Each line two spaces in. Only at `\n`: a multiline `^` also matches after U+2028 and U+2029, which JSON leaves raw inside strings. */
function indent(text: string): string {
  return `  ${text.replaceAll('\n', '\n  ')}`;
}

/** The view with every cell passed through `escape`. */
function escapedView<T>(view: View<T>, escape: (text: string) => string): View<T> {
  const escaped = (text: string | undefined) => (text === undefined ? undefined : escape(text));
  return {
    ...view,
    columns: view.columns.map((column) => {
      const { table } = column;
      return { ...column, csv: (row: T) => escaped(column.csv(row)), table: table && ((row: T) => escaped(table(row))) };
    }),
  };
}

/**
 * --query: every row first (a list reads all its pages: see ads/list.ts), then the expression,
 * then the chosen format. Text writes a string or number result bare, an array one element a line.
 */
async function writeQueried(ctx: OutputTarget, expression: string, rows: unknown, single = false): Promise<number> {
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
    await write(ctx.io.stdout, `${jsonForStream(JSON.stringify(result, null, 2), ctx.io.stdoutIsTTY)}\n`);
    return resultRows(result).length;
  }
  const out = resultRows(result);
  const objects = out.every((row) => row !== null && typeof row === 'object' && !Array.isArray(row));
  // Text of anything but objects (ids, [id, name] pairs): each value's own line, with no column view in between.
  const view = format === 'text' && !objects ? { noun: 'results', columns: [] } : resultView(out);
  return writeRows({ ...ctx, globals: { ...ctx.globals, query: undefined } }, view, out);
}
