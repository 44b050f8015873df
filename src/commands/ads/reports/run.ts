// `ads reports run`: create -> wait -> download in one command.
import type { Context } from '../../../context.js';
import { quoteArgs } from '../../quote.js';
import { createReport } from './create.js';
import { reportDestination, saveReport } from './save.js';
import type { RunReportFlags } from './spec.js';
import { parseDuration, waitForReport } from './wait.js';

export async function run(ctx: Context, flags: RunReportFlags): Promise<void> {
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  const id = await createReport(ctx, flags);
  const out = reportDestination(ctx, flags.out, id);
  ctx.info(`Report ${id} created`);
  const client = await ctx.client();
  const resume = `platform ${quoteArgs(['ads', 'reports', 'download', id, '--account', flags.account, '--wait', '--out', out])}`;
  const report = await waitForReport(ctx, client.reports, { account: flags.account, reportId: id, timeoutMs, resume });
  await saveReport(ctx, client, flags.account, id, report, out);
}
