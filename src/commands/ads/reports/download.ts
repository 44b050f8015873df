// `ads reports download ID`: saves a COMPLETED report's CSV; --wait first waits while it is PROCESSING.
import type { Context } from '../../../context.js';
import { quoteArgs } from '../../quote.js';
import type { Invocation } from '../../spec.js';
import { refuseExisting, reportDestination, saveReport } from './save.js';
import type { DownloadReportFlags } from './spec.js';
import { parseDuration } from '../../../auth/duration.js';
import { waitForReport } from './wait.js';

export async function run(ctx: Context, flags: DownloadReportFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = args[0]!;
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  const out = reportDestination(ctx, flags.out, id);
  refuseExisting(out, flags.force);
  const client = await ctx.client();
  const report = flags.wait
    ? await waitForReport(ctx, client.reports, { account: flags.account, reportId: id, timeoutMs, resume: `platform ${quoteArgs(invocation.argv)}` })
    : await client.reports.getReport(flags.account, id, { signal: ctx.signal });
  await saveReport(ctx, client, flags.account, id, report, out, flags.force);
}
