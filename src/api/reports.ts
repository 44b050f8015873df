// Typed client for ads reporting (OpenAPI tag Reporting): create a report job, get its status
// (with the download URL once COMPLETED), and the synchronous report. Builds paths, never
// prints, never downloads: the report file lives on another origin that must not receive the
// bearer token, so fetching it is the caller's job.
import { pathSegment } from '../http/path-segment.js';
import type { HttpCore } from '../http/core.js';
import type { CreateReportRequest, ReportStatusResponse, SyncReportRequest, SyncReportResponse } from '../schemas/report-requests.js';

export interface ReportCallOptions {
  signal?: AbortSignal;
  /** Reused on every retry of the create, so a lost response does not start a second job. */
  idempotencyKey?: string;
}

export class ReportsApi {
  constructor(private readonly http: HttpCore) {}

  /** POST /v1/ads/{account_id}/reporting/report -> the new job's id. */
  async createReport(accountId: string, request: CreateReportRequest, options: ReportCallOptions = {}): Promise<string> {
    const res = await this.http.send<{ report_id: string }>({
      method: 'POST',
      path: `${this.#base(accountId)}/report`,
      json: request,
      signal: options.signal,
      idempotencyKey: options.idempotencyKey,
    });
    return res.body.report_id;
  }

  /** GET /v1/ads/{account_id}/reporting/{report_id}: a COMPLETED report carries a fresh download URL each time. */
  async getReport(accountId: string, reportId: string, options: Pick<ReportCallOptions, 'signal'> = {}): Promise<ReportStatusResponse> {
    const res = await this.http.send<ReportStatusResponse>({
      method: 'GET',
      path: `${this.#base(accountId)}/${pathSegment(reportId, 'report id')}`,
      signal: options.signal,
    });
    return res.body;
  }

  /** POST /v1/ads/{account_id}/reporting/sync: rows at once, every value a string typed by schema.columns. */
  async syncReport(accountId: string, request: SyncReportRequest, options: Pick<ReportCallOptions, 'signal'> = {}): Promise<SyncReportResponse> {
    // Nothing is created, so a retry needs no idempotency key.
    const res = await this.http.send<SyncReportResponse>({
      method: 'POST',
      path: `${this.#base(accountId)}/sync`,
      json: request,
      signal: options.signal,
      idempotencyKey: false,
    });
    return res.body;
  }

  #base(accountId: string): string {
    return `/v1/ads/${pathSegment(accountId, 'account id')}/reporting`;
  }
}
