// How report commands show their rows and the range they cover. The range is always said, on
// stderr (stdout keeps the data): on a terminal as the caption line right above the table,
// once the waiting and the progress bar are done; otherwise as soon as it is known.
import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { resolveFormat } from '../../../output/format.js';
import { writeRows } from '../../../output/rows.js';
import { syncRowView, typedRow, type SyncRow } from '../../../output/views/reports.js';
import { describeRange } from '../../../schemas/reports.js';
import type { ReportTable } from './arrange.js';

/** `CAMPAIGN_PERFORMANCE (SUMMARY): 2026-11-16 .. 2026-11-23, UTC, end exclusive`. */
export function rangeLine(type: string, unit: string, start: number, end: number): string {
  return `${type} (${unit}): ${describeRange(start, end)}`;
}

/** Whether the rows go out as a table on a terminal, where the range is the table's caption. */
function tableOnTerminal(ctx: Context): boolean {
  const format = resolveFormat(ctx);
  return ctx.io.stdoutIsTTY && (format === 'table' || format === 'wide') && ctx.globals.query === undefined && !ctx.globals.fields?.length;
}

/** Says the range on stderr now, or returns it as the caption of the table to come. */
export function announceRange(ctx: Context, line: string, { printsRows }: { printsRows: boolean }): string | undefined {
  if (printsRows && tableOnTerminal(ctx)) return line;
  ctx.info(line);
  return undefined;
}

/** The rows in the -o format, typed by their columns (numbers are numbers in JSON), under the caption if any. */
export async function printReportRows(ctx: Context, table: ReportTable, caption: string | undefined, sortedBy: readonly string[] = []): Promise<void> {
  const written = new WeakMap<SyncRow, readonly string[]>();
  const rows = table.rows.map((values) => {
    const row = typedRow(table.columns, values);
    written.set(row, values);
    return row;
  });
  if (caption !== undefined) ctx.info(caption);
  await writeRows(
    ctx,
    syncRowView(
      table.columns,
      (row) => written.get(row),
      sortedBy.map((key) => key.replace(/^[-+]/, '').trim()),
    ),
    rows,
  );
}

/**
 * With --out the file is the API's CSV (its rows sorted and cut by --sort and --limit): flags
 * about printing rows do not apply, and are refused rather than ignored.
 */
export function refuseWithOut(ctx: Context, where = 'with --out'): void {
  const { output, query, fields } = ctx.globals;
  const given: Array<[unknown, string]> = [
    [fields?.length, '--json FIELDS'],
    [output !== undefined, `-o ${output}`],
    [query !== undefined, '--query'],
  ];
  const flag = given.find(([on]) => on)?.[1];
  if (flag) throw new UsageError(`${flag} does not apply ${where}, which saves the API's CSV as it is; ads reports run without --out prints rows`);
}
