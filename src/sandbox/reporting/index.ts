// Reporting in the sandbox: the download origin, the job table and the routes, started and
// closed with the sandbox.
import type { SandboxContext } from '../context.js';
import type { Router } from '../router.js';
import { DownloadOrigin, type DownloadRequest } from './download-origin.js';
import { ReportJobs } from './jobs.js';
import { registerReportingRoutes } from './routes.js';

export type { DownloadRequest } from './download-origin.js';
export { FAIL_TRIGGER, REPORT_PROCESSING_SECONDS } from './jobs.js';

export interface SandboxReporting {
  /** Origin of report download URLs (its own port), e.g. http://127.0.0.1:53121. */
  readonly downloadUrl: string;
  /** Every request the download origin received: method, path, headers. */
  readonly downloadRequests: DownloadRequest[];
  close(): Promise<void>;
}

export async function startReporting(
  router: Router,
  ctx: SandboxContext,
  options: { host: string; publicHost?: string; hosts?: string[]; timeScale: number },
): Promise<SandboxReporting> {
  const origin = new DownloadOrigin(ctx.now);
  await origin.listen(options.host, options.publicHost, options.hosts);
  const jobs = new ReportJobs(origin, ctx.now, options.timeScale, (prefix) => ctx.store.runIds.hex(prefix));
  registerReportingRoutes(router, ctx, jobs);
  return {
    downloadUrl: origin.url,
    downloadRequests: origin.requests,
    async close() {
      await origin.close();
      await jobs.close();
    },
  };
}
