// `ads reports create`: starts a report job and prints its id (JSON: the API's answer).
import type { Context } from '../../../context.js';
import { writeObject } from '../../../output/rows.js';
import { write } from '../../../base/stream-write.js';
import { REPORT_FILE_FORMAT, type CheckedReport, type ReportRequest } from '../../../schemas/reports.js';
import { announceRange, rangeLine } from './print.js';
import { reportRequest } from './query.js';
import { recordReport } from './record.js';
import type { CreateReportFlags } from './spec.js';

export async function run(ctx: Context, flags: CreateReportFlags): Promise<void> {
  const { request, checked } = reportRequest(flags, 'async', ctx.clock.now());
  announceRange(ctx, rangeLine(checked.type.name, checked.unit, checked.start, checked.end), { printsRows: false });
  const id = await createReport(ctx, flags.account, request, checked);
  // The bare id unless a format is asked for, so that `id=$(platform ads reports create ...)` works.
  if ((ctx.globals.output === undefined || ctx.globals.output === 'table') && ctx.globals.query === undefined) {
    await write(ctx.io.stdout, `${id}\n`);
    ctx.info(`Follow it with \`platform ads reports download ${id} --account ${flags.account} --wait\``);
    return;
  }
  await writeObject(
    ctx,
    { noun: 'reports', columns: [{ header: 'REPORT_ID', name: 'report_id', csv: (r: { report_id: string }) => r.report_id }] },
    { report_id: id },
  );
}

/** Creates the job of a request checked offline (one Idempotency-Key for every retry of it) and notes what it covers. */
export async function createReport(ctx: Context, account: string, request: ReportRequest, checked: CheckedReport): Promise<string> {
  const client = await ctx.client();
  const id = await client.reports.createReport(account, { ...request, file_format: REPORT_FILE_FORMAT }, { signal: ctx.signal });
  recordReport(ctx, id, account, checked, request);
  return id;
}
