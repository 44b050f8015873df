// `ads reports run`: create -> wait -> download in one command.
import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { quoteArgs } from '../../quote.js';
import { createReport } from './create.js';
import { refuseExisting, reportDestination, saveReport } from './save.js';
import type { RunReportFlags } from './spec.js';
import { parseDuration } from '../../../auth/duration.js';
import { waitForReport } from './wait.js';

export async function run(ctx: Context, flags: RunReportFlags): Promise<void> {
  const timeoutMs = parseDuration(flags.timeout, '--timeout');
  // An --out that exists stops the command before the job is created; the default name
  // (from the id) can only be checked once the job exists.
  if (flags.out !== undefined) refuseExisting(flags.out, flags.force);
  const id = await createReport(ctx, flags);
  const out = reportDestination(ctx, flags.out, id);
  ctx.info(`Report ${id} created`);
  const resume = `platform ${quoteArgs(['ads', 'reports', 'download', id, '--account', flags.account, '--wait', '--out', out, ...(flags.force ? ['--force'] : [])])}`;
  try {
    refuseExisting(out, flags.force);
  } catch (error) {
    throw error instanceof UsageError ? new UsageError(`${error.message} (the report is created: \`${resume}\` saves it)`) : error;
  }
  const client = await ctx.client();
  const report = await waitForReport(ctx, client.reports, { account: flags.account, reportId: id, timeoutMs, resume });
  await saveReport(ctx, client, flags.account, id, report, out, flags.force);
}
