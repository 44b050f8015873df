// The Reporting routes (OpenAPI tag Reporting), behind fault injection: create a report job,
// get its status (and a fresh download URL once COMPLETED), and the synchronous report.
import { SCOPES } from '../../schemas/ads.js';
import { CreateReportRequest, SyncReportRequest } from '../../schemas/report-requests.js';
import { checkReportRequest, type CheckedReport, type ReportMode, type ReportRequest } from '../../schemas/reports.js';
import { parseBody, requireAccount } from '../ads-common.js';
import { authenticate, type Caller } from '../auth.js';
import { accountScope, idempotent } from '../idempotency.js';
import type { AccountRecord } from '../store.js';
import type { SandboxContext } from '../context.js';
import { faultyRoutes } from '../faults.js';
import { adsError, json, type SandboxRequest } from '../http.js';
import type { Router } from '../router.js';
import type { ReportJobs } from './jobs.js';
import { reportRows } from './rows.js';

/** Most rows one sync report returns (ours); larger queries belong in a report job. */
export const MAX_SYNC_ROWS = 100_000;

export function registerReportingRoutes(router: Router, ctx: SandboxContext, jobs: ReportJobs): void {
  const base = '/v1/ads/{account_id}/reporting';
  faultyRoutes(router, ctx)
    .post(`${base}/report`, (req) => {
      const { account, report } = checked(ctx, req, 'async');
      // A retried create with the same Idempotency-Key gets the first job's id, not a second job.
      return idempotent(ctx, req, accountScope(account.value.ad_account_id), () => {
        const rows = reportRows(ctx.store, account.value.ad_account_id, account.value.currency_code, report, ctx.now());
        return json(200, { report_id: jobs.create(account.value.ad_account_id, report, rows) });
      });
    })
    .post(`${base}/sync`, (req) => {
      const { account, report } = checked(ctx, req, 'sync');
      const { columns, rows } = reportRows(ctx.store, account.value.ad_account_id, account.value.currency_code, report, ctx.now());
      const out: Array<{ values: string[] }> = [];
      for (const values of rows) {
        if (out.length === MAX_SYNC_ROWS) {
          throw adsError(
            400,
            'BadRequest',
            `time_range: the sync report would return more than ${MAX_SYNC_ROWS} rows; narrow the range or filters, or create a report job`,
          );
        }
        out.push({ values });
      }
      return json(200, { schema: { columns }, data: { rows: out } });
    })
    .get(`${base}/{report_id}`, (req) => {
      authenticate(ctx, req, SCOPES.reporting);
      const account = requireAccount(ctx, req);
      const id = req.params.report_id ?? '';
      const status = jobs.status(account.value.ad_account_id, id);
      if (!status) throw adsError(404, 'NotFound', `report ${id} not found in account ${account.value.ad_account_id}`);
      return json(200, status);
    });
}

interface Checked {
  caller: Caller;
  account: AccountRecord;
  report: CheckedReport;
}

function checked(ctx: SandboxContext, req: SandboxRequest, mode: ReportMode): Checked {
  const caller = authenticate(ctx, req, SCOPES.reporting);
  const account = requireAccount(ctx, req);
  const body: ReportRequest = parseBody(req, mode === 'async' ? CreateReportRequest : SyncReportRequest);
  const result = checkReportRequest(body, mode);
  if ('field' in result) throw adsError(400, 'BadRequest', `${result.field}: ${result.message}`);
  return { caller, account, report: result };
}
