// `ads reports run`: create -> wait -> download in one command. Without --out the rows are
// printed in the -o format; --out saves the API's CSV. Either way --sort and --limit arrange
// the rows.
import type { Context } from '../../../context.js';
import { CommandError } from '../../../base/errors.js';
import { outputColumns } from '../../../schemas/reports.js';
import { quoteArgs } from '../../quote.js';
import { arrangeRows, checkLimit, checkSort, sortKeys, typedColumns } from './arrange.js';
import { createReport } from './create.js';
import { announceRange, printReportRows, rangeLine, refuseWithOut } from './print.js';
import { reportRequest } from './query.js';
import { readReport, saveReport } from './save.js';
import { refuseExisting } from './save-target.js';
import type { RunReportFlags } from './spec.js';
import { parseDuration } from '../../../auth/duration.js';
import { waitForReport } from './wait.js';

export async function run(ctx: Context, flags: RunReportFlags): Promise<void> {
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  checkLimit(flags.limit);
  const { out } = flags;
  if (out !== undefined) refuseWithOut(ctx);
  const { request, checked } = reportRequest(flags, 'async', ctx.clock.now());
  const columns = outputColumns(checked.columns, checked.unit);
  checkSort(flags.sort, columns);
  // An --out that exists stops the command before the job is created.
  if (out !== undefined) refuseExisting(out, flags.force);
  const caption = announceRange(ctx, rangeLine(checked.type.name, checked.unit, checked.start, checked.end), { printsRows: out === undefined });
  const id = await createReport(ctx, flags.account, request, checked);
  ctx.info(`Report ${id} created`);
  // The same rows again: download takes --sort and --limit too.
  const arranged = [...(flags.sort ?? []).flatMap((key) => [`--sort=${key}`]), ...(flags.limit !== undefined ? ['--limit', String(flags.limit)] : [])];
  const resume = `platform ${quoteArgs(['ads', 'reports', 'download', id, '--account', flags.account, '--wait', ...(out !== undefined ? ['--out', out] : []), ...arranged, ...(flags.force ? ['--force'] : [])])}`;
  const client = await ctx.client();
  const report = await waitForReport(ctx, client.reports, { account: flags.account, reportId: id, timeoutMs, resume });
  if (out !== undefined) return saveReport(ctx, client, flags.account, id, report, out, flags);
  const { parse } = await import('csv-parse/sync');
  // With --limit only the rows that can be printed are read; arranging them again keeps them so.
  const records: string[][] = parse(await readReport(ctx, client, flags.account, id, report, flags), {
    relax_column_count: true,
  });
  const [header, ...rows] = records;
  if (header === undefined) throw new CommandError(`report ${id}: the file is empty (no header)`);
  const table = { columns: typedColumns(header), rows };
  await printReportRows(ctx, arrangeRows(table, sortKeys(flags.sort, table.columns), flags.limit), caption, flags.sort);
}
