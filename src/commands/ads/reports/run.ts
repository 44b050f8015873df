// `ads reports run`: create -> wait -> download in one command. Without --out the rows are
// printed in the -o format (sorted and cut by --sort and --limit); --out saves the API's CSV.
import type { Context } from '../../../context.js';
import { CommandError } from '../../../base/errors.js';
import { columnDef, outputColumns } from '../../../schemas/reports.js';
import { quoteArgs } from '../../quote.js';
import { arrangeRows, checkLimit, checkSort, sortKeys } from './arrange.js';
import { createReport } from './create.js';
import { announceRange, printReportRows, rangeLine, refuseWithOut } from './print.js';
import { reportRequest } from './query.js';
import { readReport, refuseExisting, saveReport } from './save.js';
import type { RunReportFlags } from './spec.js';
import { parseDuration } from '../../../auth/duration.js';
import { waitForReport } from './wait.js';

export async function run(ctx: Context, flags: RunReportFlags): Promise<void> {
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  checkLimit(flags.limit);
  const { out } = flags;
  if (out !== undefined) refuseWithOut(ctx, flags);
  const { request, checked } = reportRequest(flags, 'async', ctx.clock.now());
  const columns = outputColumns(checked.columns, checked.unit);
  checkSort(flags.sort, columns);
  // An --out that exists stops the command before the job is created.
  if (out !== undefined) refuseExisting(out, flags.force);
  const caption = announceRange(ctx, rangeLine(checked.type.name, checked.unit, checked.start, checked.end), { printsRows: out === undefined });
  const id = await createReport(ctx, flags.account, request, checked);
  ctx.info(`Report ${id} created`);
  const resume = `platform ${quoteArgs(['ads', 'reports', 'download', id, '--account', flags.account, '--wait', ...(out !== undefined ? ['--out', out] : []), ...(flags.force ? ['--force'] : [])])}`;
  const client = await ctx.client();
  const report = await waitForReport(ctx, client.reports, { account: flags.account, reportId: id, timeoutMs, resume });
  if (out !== undefined) return saveReport(ctx, client, flags.account, id, report, out, flags.force);
  const { parse } = await import('csv-parse/sync');
  const records: string[][] = parse(await readReport(ctx, client, flags.account, id, report), { relax_column_count: true });
  const [header, ...rows] = records;
  if (header === undefined) throw new CommandError(`report ${id}: the file is empty (no header)`);
  const table = { columns: header.map((name) => ({ name, type: columnDef(name)?.type ?? 'COLUMN_TYPE_STRING' })), rows };
  await printReportRows(ctx, arrangeRows(table, sortKeys(flags.sort, table.columns), flags.limit), caption, flags.sort);
}
