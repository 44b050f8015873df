// `ads reports create`: starts a report job and prints its id (JSON: the API's answer).
import type { Context } from '../../../context.js';
import { writeObject } from '../../../output/rows.js';
import { write } from '../../../base/stream-write.js';
import { REPORT_FILE_FORMAT } from '../../../schemas/reports.js';
import { reportRequest } from './query.js';
import type { CreateReportFlags } from './spec.js';

export async function run(ctx: Context, flags: CreateReportFlags): Promise<void> {
  const id = await createReport(ctx, flags);
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

/** Checks the query offline, then creates the job (one Idempotency-Key for every retry of it). */
export async function createReport(ctx: Context, flags: CreateReportFlags): Promise<string> {
  const { request } = reportRequest(flags, 'async', ctx.clock.now());
  const client = await ctx.client();
  return client.reports.createReport(flags.account, { ...request, file_format: REPORT_FILE_FORMAT }, { signal: ctx.signal });
}
