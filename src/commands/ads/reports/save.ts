// Saving a completed report: streams its file from the download origin (never with the
// bearer token) to --out or stdout, with a byte progress bar against file_size. A URL that
// has expired is renewed once by reading the report's status again. The file is written
// whole or not at all (save-target.ts); --sort and --limit arrange its rows (arrange.ts).
import type { ApiClient } from '../../../api/client.js';
import type { Context } from '../../../context.js';
import { CommandError } from '../../../base/errors.js';
import { DownloadRefusedError } from '../../../http/download.js';
import { formatBytes } from '../../../output/progress.js';
import type { ReportStatusResponse } from '../../../schemas/report-requests.js';
import { shown } from '../../../schemas/input-limits.js';
import { arrangeCsv } from './arrange.js';
import { firstRecords } from './first-records.js';
import { fileTarget, stdoutTarget, writeWhole, type SaveTarget } from './save-target.js';
import { TOP_RECORDS_MAX, TopRecords } from './top-records.js';

/**
 * Where a download goes: --out FILE, --out - (stdout), or by default stdout when piped and a
 * file on a terminal: `fileName` (TYPE_SINCE_UNTIL.csv when this machine created the report),
 * else REPORT_ID.csv.
 */
export function reportDestination(ctx: Context, out: string | undefined, reportId: string, fileName?: string): string {
  if (out !== undefined) return out;
  return ctx.io.stdoutIsTTY ? (fileName ?? `${safeFileName(reportId)}.csv`) : '-';
}

/**
 * One path segment made of an id the server chose: letters, digits, `_` and `-` (no `/`,
 * `\`, `..` or control characters, nor a leading `-`); `report` when nothing is left.
 */
export function safeFileName(id: string): string {
  const name = id
    .replace(/[^A-Za-z0-9_-]+/g, '_')
    .replace(/^[_-]+|_+$/g, '')
    .slice(0, 100);
  return name || 'report';
}

/** How --out is written: --force, and --sort/--limit arranging the API's rows. */
export interface SaveOptions {
  force?: boolean;
  sort?: readonly string[];
  limit?: number;
}

/**
 * Saves the report to `out` (`-`: stdout). With --sort the file is read first (in memory, or
 * only its top rows with a --limit), then written; with --limit alone only its first rows are fetched.
 */
export async function saveReport(
  ctx: Context,
  client: ApiClient,
  account: string,
  reportId: string,
  report: ReportStatusResponse,
  out: string,
  { force = false, sort, limit }: SaveOptions = {},
): Promise<void> {
  const started = ctx.clock.now();
  const target = out === '-' ? stdoutTarget(ctx) : fileTarget(out, force);
  const notSaved = out === '-' ? '' : `; nothing was saved to ${out}`;
  const bytes = sort?.length
    ? await writeWhole(target, await sortedReport(ctx, client, account, reportId, report, notSaved, { sort, limit }))
    : await receive(ctx, client, account, reportId, report, target, notSaved, limit);
  const seconds = Math.max(ctx.clock.now() - started, 1) / 1000;
  const rows = [...(limit === undefined ? [] : [`the first ${limit} rows`]), ...(sort?.length ? [`sorted by ${sort.join(', ')}`] : [])].join(', ');
  const size = `${formatBytes(bytes)} in ${seconds.toFixed(2)} s, ${formatBytes(bytes / seconds)}/s`;
  if (out !== '-') ctx.info(`Saved report ${reportId} to ${out} (${rows ? `${rows}; ` : ''}${size})`);
}

/**
 * The report file in memory, for commands that print its rows (sorted, cut, in the -o format):
 * with --limit, only the rows that can be printed (the first ones, or the top ones by --sort).
 */
export async function readReport(
  ctx: Context,
  client: ApiClient,
  account: string,
  reportId: string,
  report: ReportStatusResponse,
  { sort, limit, notSaved = '' }: { sort?: readonly string[]; limit?: number; notSaved?: string } = {},
): Promise<Buffer> {
  if (sort?.length && limit !== undefined && limit <= TOP_RECORDS_MAX)
    return Buffer.concat(await sortedReport(ctx, client, account, reportId, report, notSaved, { sort, limit }));
  let chunks: Buffer[] = [];
  const target = collector(() => {
    chunks = [];
    return (chunk) => void chunks.push(chunk);
  });
  await receive(ctx, client, account, reportId, report, target, notSaved, sort?.length ? undefined : limit);
  return Buffer.concat(chunks);
}

/**
 * The report's file with its rows sorted and cut, as the pieces to write: with a --limit up to
 * TOP_RECORDS_MAX only the top rows are kept as it streams by, else it is read whole first.
 */
async function sortedReport(
  ctx: Context,
  client: ApiClient,
  account: string,
  reportId: string,
  report: ReportStatusResponse,
  notSaved: string,
  { sort, limit }: { sort: readonly string[]; limit: number | undefined },
): Promise<Buffer[]> {
  if (limit === undefined || limit > TOP_RECORDS_MAX)
    return arrangeCsv(await readReport(ctx, client, account, reportId, report, { notSaved }), sort, limit, reportId);
  let top = new TopRecords(sort, limit, reportId);
  const target = collector(() => {
    top = new TopRecords(sort, limit, reportId);
    return (chunk) => top.write(chunk);
  });
  await receive(ctx, client, account, reportId, report, target, notSaved);
  return top.end();
}

/** A target that hands the bytes to `start()`'s function, started afresh for each attempt. */
function collector(start: () => (chunk: Buffer) => void): SaveTarget {
  return {
    open: () => {
      const write = start();
      return { write, end: () => Promise.resolve() };
    },
    restartable: true,
    commit() {},
    abandon: () => Promise.resolve(),
  };
}

/**
 * Streams the report's file into `target` (renewing an expired URL once) and checks its size;
 * the bytes written. With `rows`, only the header and that many rows are written, and the
 * download stops there (a file cut short is not checked against file_size).
 */
async function receive(
  ctx: Context,
  client: ApiClient,
  account: string,
  reportId: string,
  report: ReportStatusResponse,
  target: SaveTarget,
  notSaved: string,
  rows?: number,
): Promise<number> {
  let success = report.result?.success_result;
  if (!success) throw new CommandError(noDownload(reportId, report));
  const downloadUrl = success.report_url;
  if (!isHttpUrl(downloadUrl)) throw new CommandError(`report ${reportId}: success_result.report_url is not an http(s) URL: ${shown(downloadUrl)}`);
  // file_size is an int64 as a string; one that is not digits is not checked against the bytes.
  const announced = /^\d+$/.test(success.file_size) ? Number(success.file_size) : undefined;
  const progress = ctx.transfer(announced ?? 0);
  // The download is stopped through its signal once the rows are in; that reason is no failure.
  const stop = new AbortController();
  const enough = new Error('the rows wanted are saved');
  const first = rows === undefined ? undefined : firstRecords(target, rows + 1, () => queueMicrotask(() => stop.abort(enough)));
  const into = first ?? target;
  const signal = first ? AbortSignal.any([ctx.signal, stop.signal]) : ctx.signal;
  try {
    const received = await client.downloads
      .download(downloadUrl, into, { signal, onBytes: (n) => progress.update(n) })
      .catch(async (error: unknown) => {
        if (!(error instanceof DownloadRefusedError)) throw error;
        // Expired (403): the status carries a fresh URL; one renewal, then the refusal stands.
        const renewed = await client.reports.getReport(account, reportId, { signal: ctx.signal });
        success = renewed.result?.success_result;
        if (!success || !isHttpUrl(success.report_url)) throw error;
        return client.downloads.download(success.report_url, into, { signal, onBytes: (n) => progress.update(n) });
      })
      .catch(async (error: unknown) => {
        if (error !== enough || !first?.cut) throw error;
        await first.cut;
        return undefined;
      });
    if (received !== undefined && announced !== undefined && received !== Number(success.file_size)) {
      throw new CommandError(`report ${reportId}: received ${received} bytes, the API announced ${success.file_size}${notSaved}`);
    }
    into.commit();
    return first ? first.written : (received ?? 0);
  } catch (error) {
    await into.abandon();
    throw error;
  } finally {
    progress.clear();
  }
}

/** Why a report without a success_result has nothing to download, in one line. */
function noDownload(reportId: string, report: ReportStatusResponse): string {
  const reason = report.result?.failure_result?.failure_reason;
  if (report.status === 'FAILED' || reason !== undefined) return `report ${reportId} failed (status ${report.status}): ${reason ?? 'no reason given'}`;
  if (report.status === 'COMPLETED') return `report ${reportId} is COMPLETED but the API gave no success_result (no download URL)`;
  return `report ${reportId} is ${report.status}, not COMPLETED: there is nothing to download yet (add --wait to wait for it)`;
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}
