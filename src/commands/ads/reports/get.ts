// `ads reports get ID`: the job's status; once COMPLETED, its file (size, columns, URL expiry).
// Type, unit and range come from the note this machine kept when it created the job (the API's
// status does not carry them).
import type { Context } from '../../../context.js';
import { writeDetail } from '../../../output/detail.js';
import { reportDetail } from '../../../output/views/reports.js';
import { announceRange, rangeLine } from './print.js';
import { readRecord } from './record.js';
import type { GetReportFlags } from './spec.js';

export async function run(ctx: Context, flags: GetReportFlags, args: string[]): Promise<void> {
  const id = args[0]!;
  const client = await ctx.client();
  const status = await client.reports.getReport(flags.account, id, { signal: ctx.signal });
  const noted = readRecord(ctx, id, flags.account);
  // On a terminal the detail shows the range; otherwise stderr says it, stdout keeps the API's object.
  if (noted) announceRange(ctx, rangeLine(noted.report_type, noted.time_unit, noted.start, noted.end), { printsRows: true });
  else ctx.info(`Report ${id}: type and range not known here (created elsewhere)`);
  const report = {
    report_id: id,
    ...(noted ? { report_type: noted.report_type, time_unit: noted.time_unit, time_range: { start_time: noted.start_time, end_time: noted.end_time } } : {}),
    ...status,
  };
  await writeDetail(ctx, report, reportDetail(report));
}
