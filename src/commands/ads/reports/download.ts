// `ads reports download ID`: saves a COMPLETED report's CSV; --wait first waits while it is PROCESSING.
// On a terminal the file is named after the report's type and range when this machine created it.
import type { Context } from '../../../context.js';
import { reportFileName } from '../../../schemas/reports.js';
import { quoteArgs } from '../../quote.js';
import type { Invocation } from '../../spec.js';
import { checkLimit } from './arrange.js';
import { rangeLine, refuseWithOut } from './print.js';
import { readRecord } from './record.js';
import { reportDestination, saveReport } from './save.js';
import { refuseExisting } from './save-target.js';
import type { DownloadReportFlags } from './spec.js';
import { parseDuration } from '../../../auth/duration.js';
import { waitForReport } from './wait.js';

export async function run(ctx: Context, flags: DownloadReportFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = args[0]!;
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  checkLimit(flags.limit);
  // The file is the API's CSV as it is: no output format applies.
  refuseWithOut(ctx, 'to reports download');
  const noted = readRecord(ctx, id, flags.account);
  const out = reportDestination(ctx, flags.out, id, noted && reportFileName(noted.report_type, noted.start, noted.end));
  refuseExisting(out, flags.force);
  // The range when this machine created the report (else `reports get` says it is not known here): one line before the wait.
  if (noted) ctx.info(rangeLine(noted.report_type, noted.time_unit, noted.start, noted.end));
  const client = await ctx.client();
  const report = flags.wait
    ? await waitForReport(ctx, client.reports, { account: flags.account, reportId: id, timeoutMs, resume: `platform ${quoteArgs(invocation.argv)}` })
    : await client.reports.getReport(flags.account, id, { signal: ctx.signal });
  await saveReport(ctx, client, flags.account, id, report, out, flags);
}
