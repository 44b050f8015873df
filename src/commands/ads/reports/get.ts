// `ads reports get ID`: the job's status; once COMPLETED, its file (size, columns, URL expiry).
import type { Context } from '../../../context.js';
import { writeDetail } from '../../../output/detail.js';
import { reportDetail } from '../../../output/views/reports.js';
import type { GetReportFlags } from './spec.js';

export async function run(ctx: Context, flags: GetReportFlags, args: string[]): Promise<void> {
  const client = await ctx.client();
  const report = { report_id: args[0]!, ...(await client.reports.getReport(flags.account, args[0]!, { signal: ctx.signal })) };
  await writeDetail(ctx, report, reportDetail(report));
}
