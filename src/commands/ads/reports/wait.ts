// Waiting for a report job: polls its status with back-off (a spinner with the status and
// the time waited on a terminal, a line per change otherwise) until COMPLETED or FAILED,
// a --timeout, or Ctrl-C; the last two name the command that waits again.
import type { ReportsApi } from '../../../api/reports.js';
import type { Context } from '../../../context.js';
import { CommandError, InterruptedError } from '../../../base/errors.js';
import type { ReportStatusResponse } from '../../../schemas/report-requests.js';

/** First wait between polls, its growth, and its ceiling: quick jobs end quickly, slow ones are not hammered. */
const FIRST_POLL_MS = 500;
const POLL_GROWTH = 1.5;
const MAX_POLL_MS = 15_000;
/** The spinner's elapsed time moves at least this often. */
const TICK_MS = 1000;

export interface WaitOptions {
  account: string;
  reportId: string;
  timeoutMs: number;
  /** The command that picks the wait up again (after a timeout or Ctrl-C). */
  resume: string;
}

/** Polls until the report is COMPLETED (returned) or FAILED (exit 1 with its reason). */
export async function waitForReport(ctx: Context, reports: ReportsApi, options: WaitOptions): Promise<ReportStatusResponse> {
  const started = ctx.clock.now();
  const describe = (status: string) => `Report ${options.reportId}: ${status} (${Math.round((ctx.clock.now() - started) / 1000)} s)`;
  let report = await reports.getReport(options.account, options.reportId, { signal: ctx.signal });
  const line = report.status === 'PROCESSING' ? await ctx.status(describe(report.status)) : undefined;
  try {
    let delay = FIRST_POLL_MS;
    while (report.status === 'PROCESSING') {
      const deadline = started + options.timeoutMs;
      const due = Math.min(ctx.clock.now() + delay, deadline);
      while (ctx.clock.now() < due) {
        await ctx.clock.sleep(Math.min(TICK_MS, due - ctx.clock.now()), ctx.signal).catch((error: unknown) => {
          if (!ctx.signal.aborted) throw error;
          // Ctrl-C stops the waiting, not the job: say how to pick it up again.
          throw new InterruptedError(`interrupted: report ${options.reportId} is still PROCESSING. Wait for it again with \`${options.resume}\`.`);
        });
        if (ctx.io.stderrIsTTY) line?.update(describe(report.status));
      }
      if (ctx.clock.now() >= deadline) {
        throw new CommandError(
          `report ${options.reportId} is still PROCESSING after ${Math.round(options.timeoutMs / 1000)} s (--timeout); wait for it again with \`${options.resume}\``,
        );
      }
      report = await reports.getReport(options.account, options.reportId, { signal: ctx.signal });
      delay = Math.min(MAX_POLL_MS, delay * POLL_GROWTH);
    }
  } finally {
    line?.stop();
  }
  if (report.status === 'FAILED') {
    throw new CommandError(`report ${options.reportId} failed: ${report.result?.failure_result?.failure_reason ?? 'no reason given'}`);
  }
  return report;
}
