// `ads reports sync`: report rows at once, typed by the schema the API returns. The API's sync
// form has DAILY and HOURLY rows only: --unit summary asks for DAILY rows and sums each
// entity's counts and money here (a ratio cannot be summed, so it is refused).
import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { outputColumns, reportType, TIME_COLUMNS } from '../../../schemas/reports.js';
import { arrangeRows, checkLimit, checkSort, firstRatio, sortKeys, summarize, type ReportTable } from './arrange.js';
import { announceRange, printReportRows, rangeLine } from './print.js';
import { reportRequest } from './query.js';
import type { SyncReportFlags } from './spec.js';

export async function run(ctx: Context, flags: SyncReportFlags): Promise<void> {
  checkLimit(flags.limit);
  const summary = flags.unit.toLowerCase() === 'summary';
  if (summary) checkSummaryColumns(flags.columns ?? reportType(flags.type)?.defaultColumns ?? []);
  const { request, checked } = reportRequest({ ...flags, unit: summary ? 'daily' : flags.unit }, 'sync', ctx.clock.now());
  checkSort(flags.sort, summary ? checked.columns : outputColumns(checked.columns, checked.unit));
  const caption = announceRange(ctx, rangeLine(checked.type.name, summary ? 'SUMMARY' : checked.unit, checked.start, checked.end), { printsRows: true });
  const client = await ctx.client();
  const { schema, data } = await client.reports.syncReport(flags.account, request, { signal: ctx.signal });
  let table: ReportTable = { columns: schema.columns, rows: data.rows.map(({ values }) => values) };
  if (summary) table = summarize(table);
  await printReportRows(ctx, arrangeRows(table, sortKeys(flags.sort, table.columns), flags.limit), caption, flags.sort);
}

/** A summary has no time column, and sums only what adds up. */
function checkSummaryColumns(columns: readonly string[]): void {
  const time = columns.find((name) => Object.values(TIME_COLUMNS).includes(name));
  if (time) throw new UsageError(`--columns: ${time} is not a column of SUMMARY rows (one row per entity over the whole range); nothing was sent`);
  const ratio = firstRatio(columns);
  if (ratio)
    throw new UsageError(
      `--columns: ${ratio} is a ratio, which sync --unit summary cannot sum from daily rows; use \`ads reports run --unit summary\`, or leave it out; nothing was sent`,
    );
}
