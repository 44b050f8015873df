// Asynchronous report jobs. A job is PROCESSING for REPORT_PROCESSING_SECONDS of simulated
// time (the sandbox clock, sped up by --time-scale) and until its CSV file is written, then
// COMPLETED; or FAILED when a filter value starts with FAIL_TRIGGER (the documented way to
// see a failure). Jobs live in memory for the sandbox's lifetime (not in --state). A finished
// file is opened and at once unlinked, so it is served from the open handle and its space is
// returned when the sandbox closes or its process dies, however it dies.
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { formatUtc, REPORT_URL_TTL_MS, type CheckedReport, type ReportStatus } from '../../schemas/reports.js';
import { writeCsvFile } from './csv-file.js';
import type { DownloadOrigin } from './download-origin.js';
import type { ReportRows } from './rows.js';

/** Simulated seconds a report job takes (ours; real jobs take minutes to hours). */
export const REPORT_PROCESSING_SECONDS = 20;
/** A filter value starting with this makes the job FAILED; text after `sandbox-fail:` is the reason. */
export const FAIL_TRIGGER = 'sandbox-fail';
const DEFAULT_FAILURE_REASON = 'the report could not be generated (sandbox failure trigger)';

interface Job {
  id: string;
  accountId: string;
  startedAt: number;
  readyAt: number;
  failureReason?: string;
  file?: { handle: FileHandle; size: number; writtenAt: number };
  columns: string[];
}

export interface ReportStatusBody {
  status: ReportStatus;
  result?: {
    started_at: string;
    finished_at?: string;
    success_result?: { report_url: string; file_size: string; url_expires_at: string; report_schema: string[] };
    failure_result?: { failure_reason: string };
  };
}

export class ReportJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly abort = new AbortController();
  private readonly handles = new Set<FileHandle>();

  constructor(
    private readonly origin: DownloadOrigin,
    private readonly now: () => number,
    private readonly timeScale: number,
    /** A job's id: `prefix` and hex digits, numbered by the sandbox's run (id-sequence.ts). */
    private readonly newId: (prefix: string) => string,
  ) {}

  create(accountId: string, report: CheckedReport, rows: ReportRows): string {
    const id = this.newId('report_');
    const startedAt = this.now();
    const job: Job = {
      id,
      accountId,
      startedAt,
      readyAt: startedAt + (REPORT_PROCESSING_SECONDS * 1000) / this.timeScale,
      columns: rows.columns.map((c) => c.name),
      failureReason: failureTrigger(report),
    };
    this.jobs.set(id, job);
    if (job.failureReason === undefined) void this.write(job, rows);
    return id;
  }

  /** The job's status body, minting a fresh download URL when COMPLETED; undefined for an unknown id or another account's. */
  status(accountId: string, id: string): ReportStatusBody | undefined {
    const job = this.jobs.get(id);
    if (!job || job.accountId !== accountId) return undefined;
    const now = this.now();
    const started_at = formatUtc(job.startedAt);
    // The OpenAPI's result holds one of success_result and failure_result (a protobuf oneof, as
    // the contract gate reads it): a job still running has no result yet.
    if (now < job.readyAt || (job.failureReason === undefined && !job.file)) return { status: 'PROCESSING' };
    if (job.failureReason !== undefined) {
      return { status: 'FAILED', result: { started_at, finished_at: formatUtc(job.readyAt), failure_result: { failure_reason: job.failureReason } } };
    }
    const file = job.file!;
    const expiresAt = now + REPORT_URL_TTL_MS;
    const report_url = this.origin.issue({ handle: file.handle, size: file.size, name: `${job.id}.csv` }, expiresAt);
    return {
      status: 'COMPLETED',
      result: {
        started_at,
        finished_at: formatUtc(Math.max(job.readyAt, file.writtenAt)),
        success_result: { report_url, file_size: String(file.size), url_expires_at: formatUtc(expiresAt), report_schema: job.columns },
      },
    };
  }

  /** Stops writing and releases every report file. */
  async close(): Promise<void> {
    this.abort.abort(new Error('sandbox closed'));
    await Promise.all([...this.handles].map((h) => h.close().catch(() => undefined)));
    this.handles.clear();
  }

  private async write(job: Job, rows: ReportRows): Promise<void> {
    const path = join(tmpdir(), `platform-sandbox-${job.id}-${randomBytes(6).toString('hex')}.csv`);
    try {
      const size = await writeCsvFile(path, job.columns, rows.rows, this.abort.signal);
      const handle = await open(path, 'r');
      if (this.abort.signal.aborted) {
        await handle.close();
        return;
      }
      this.handles.add(handle);
      job.file = { handle, size, writtenAt: this.now() };
    } catch (error) {
      if (!this.abort.signal.aborted) job.failureReason = `internal error while writing the report: ${(error as Error).message}`;
    } finally {
      await unlink(path).catch(() => undefined);
    }
  }
}

function failureTrigger(report: CheckedReport): string | undefined {
  for (const f of report.filters) {
    const value = f.values.find((v) => v.startsWith(FAIL_TRIGGER));
    if (value !== undefined)
      return value.startsWith(`${FAIL_TRIGGER}:`) && value.length > FAIL_TRIGGER.length + 1 ? value.slice(FAIL_TRIGGER.length + 1) : DEFAULT_FAILURE_REASON;
  }
  return undefined;
}
