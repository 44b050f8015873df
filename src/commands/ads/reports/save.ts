// Saving a completed report: streams its file from the download origin (never with the
// bearer token) to --out or stdout, with a byte progress bar against file_size. A URL that
// has expired is renewed once by reading the report's status again.
//
// A file is written to a new temporary file beside its final name (created exclusively, so
// a planted file or symlink is never written through), checked against file_size, and only
// then given its name; an existing file is replaced only with --force. Whatever fails, the
// temporary file goes and the file under the final name is as it was (README, Reports).
import fs from 'node:fs';
import type { ApiClient } from '../../../api/client.js';
import { notWritableCode, notWritableReason } from '../../../config/write-failure.js';
import type { Context } from '../../../context.js';
import { CommandError, UsageError } from '../../../base/errors.js';
import { DownloadRefusedError, type DownloadTarget } from '../../../http/download.js';
import { formatBytes } from '../../../output/progress.js';
import { write } from '../../../base/stream-write.js';
import { partPath, removeStaleParts, syncToDisk } from '../../../base/part-file.js';
import type { ReportStatusResponse } from '../../../schemas/report-requests.js';
import { shown } from '../../../schemas/input-limits.js';

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

/** Without --force, a file (or link, or folder) already at `out` stops the command before anything is fetched. */
export function refuseExisting(out: string, force: boolean | undefined): void {
  if (out === '-' || force) return;
  if (exists(out)) throw new UsageError(existsMessage(out));
}

const existsMessage = (file: string) => `${file} already exists; pass --force to replace it, or --out another file`;

function exists(file: string): boolean {
  try {
    fs.lstatSync(file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
}

export async function saveReport(
  ctx: Context,
  client: ApiClient,
  account: string,
  reportId: string,
  report: ReportStatusResponse,
  out: string,
  force = false,
): Promise<void> {
  const started = ctx.clock.now();
  const bytes = await receive(
    ctx,
    client,
    account,
    reportId,
    report,
    out === '-' ? stdoutTarget(ctx) : fileTarget(out, force),
    out === '-' ? '' : `; nothing was saved to ${out}`,
  );
  const seconds = Math.max(ctx.clock.now() - started, 1) / 1000;
  if (out !== '-') ctx.info(`Saved report ${reportId} to ${out} (${formatBytes(bytes)} in ${seconds.toFixed(2)} s, ${formatBytes(bytes / seconds)}/s)`);
}

/** The whole report file in memory, for commands that print its rows (sorted, cut, in the -o format). */
export async function readReport(ctx: Context, client: ApiClient, account: string, reportId: string, report: ReportStatusResponse): Promise<Buffer> {
  let chunks: Buffer[] = [];
  const target: SaveTarget = {
    open: () => {
      chunks = [];
      return { write: (chunk: Buffer) => void chunks.push(chunk), end: () => Promise.resolve() };
    },
    restartable: true,
    commit() {},
    abandon: () => Promise.resolve(),
  };
  await receive(ctx, client, account, reportId, report, target, '');
  return Buffer.concat(chunks);
}

/** Streams the report's file into `target` (renewing an expired URL once) and checks its size; the bytes received. */
async function receive(
  ctx: Context,
  client: ApiClient,
  account: string,
  reportId: string,
  report: ReportStatusResponse,
  target: SaveTarget,
  notSaved: string,
): Promise<number> {
  let success = report.result?.success_result;
  if (!success) throw new CommandError(noDownload(reportId, report));
  const downloadUrl = success.report_url;
  if (!isHttpUrl(downloadUrl)) throw new CommandError(`report ${reportId}: success_result.report_url is not an http(s) URL: ${shown(downloadUrl)}`);
  // file_size is an int64 as a string; one that is not digits is not checked against the bytes.
  const announced = /^\d+$/.test(success.file_size) ? Number(success.file_size) : undefined;
  const progress = ctx.transfer(announced ?? 0);
  try {
    const bytes = await client.downloads
      .download(downloadUrl, target, { signal: ctx.signal, onBytes: (n) => progress.update(n) })
      .catch(async (error: unknown) => {
        if (!(error instanceof DownloadRefusedError)) throw error;
        // Expired (403): the status carries a fresh URL; one renewal, then the refusal stands.
        const renewed = await client.reports.getReport(account, reportId, { signal: ctx.signal });
        success = renewed.result?.success_result;
        if (!success || !isHttpUrl(success.report_url)) throw error;
        return client.downloads.download(success.report_url, target, { signal: ctx.signal, onBytes: (n) => progress.update(n) });
      });
    if (announced !== undefined && bytes !== Number(success.file_size)) {
      throw new CommandError(`report ${reportId}: received ${bytes} bytes, the API announced ${success.file_size}${notSaved}`);
    }
    target.commit();
    return bytes;
  } catch (error) {
    await target.abandon();
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

interface SaveTarget extends DownloadTarget {
  /** The whole, checked file takes its name. */
  commit(): void;
  /** Removes what was written; the file under the final name stays as it was. */
  abandon(): Promise<void>;
}

function stdoutTarget(ctx: Context): SaveTarget {
  // stdout stays open after the report: waits on back-pressure only (a slow pipe holds the download, not memory).
  const sink = { write: (chunk: Buffer) => write(ctx.io.stdout, chunk), end() {} };
  return { open: () => sink, restartable: false, commit() {}, abandon: () => Promise.resolve() };
}

/** Bytes handed to the file system and not yet written, at most: past it the socket waits. */
const MAX_PENDING_BYTES = 8 << 20;
/** The size of one file write. */
const WRITE_BYTES = 1 << 20;
/** Create, never open an existing file, never follow a link (O_NOFOLLOW is not on Windows). */
const CREATE_NEW = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | (fs.constants.O_NOFOLLOW ?? 0);

/** A file system error while writing the report, as one line naming the file. */
function writeFailure(error: unknown, file: string): Error {
  const code = notWritableCode(error) ?? (error as NodeJS.ErrnoException).code;
  if (!code) return error instanceof Error ? error : new Error(String(error));
  const reason = notWritableCode(error) ? notWritableReason(code) : code;
  return new CommandError(`could not write the report to ${file}: ${reason}; nothing was saved under that name`);
}

interface Attempt {
  partial: string;
  sink: { write(chunk: Buffer): Promise<void> | undefined; end(): Promise<void> };
  /** Waits for its writes, closes and removes its file. */
  discard(): Promise<void>;
}

function fileTarget(file: string, force: boolean): SaveTarget {
  let current: Attempt | undefined;
  const discarding: Array<Promise<void>> = [];
  return {
    // Each attempt writes a new temporary file; a restarted download discards the last one.
    open: () => {
      if (current) discarding.push(current.discard());
      else removeStaleParts(file);
      const partial = partPath(file);
      current = openAttempt(partial, file);
      return current.sink;
    },
    restartable: true,
    commit: () => {
      const partial = current?.partial;
      if (!partial) throw new CommandError(`report file ${file}: nothing was downloaded`);
      place(partial, file, force);
      current = undefined;
    },
    abandon: async () => {
      if (current) discarding.push(current.discard());
      current = undefined;
      await Promise.all(discarding);
    },
  };
}

/** Gives the checked temporary file its name: atomically replacing with --force, else only if the name is free. */
function place(partial: string, file: string, force: boolean): void {
  try {
    syncToDisk(partial);
    if (force) return fs.renameSync(partial, file);
    try {
      // A hard link fails if the name exists, in the same step (a file created meanwhile is not replaced).
      fs.linkSync(partial, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') throw new UsageError(existsMessage(file));
      // No hard links on this file system: check, then rename.
      if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'EMLINK') throw error;
      if (exists(file)) throw new UsageError(existsMessage(file));
      return fs.renameSync(partial, file);
    }
    fs.rmSync(partial, { force: true });
  } catch (error) {
    throw error instanceof UsageError ? error : writeFailure(error, file);
  }
}

function openAttempt(partial: string, file: string): Attempt {
  let fd: number | undefined;
  try {
    fd = fs.openSync(partial, CREATE_NEW, 0o666);
  } catch (error) {
    throw writeFailure(error, file);
  }
  const opened = fd;
  const close = () => {
    if (fd !== undefined) fs.closeSync(fd);
    fd = undefined;
  };
  let position = 0;
  let pending = 0;
  let failure: Error | undefined;
  let waiting: (() => void) | undefined;
  // A write finished: whoever waits checks again (and waits on if still above its limit).
  const settled = () => {
    const check = waiting;
    waiting = undefined;
    check?.();
  };
  const untilBelow = (limit: number) =>
    new Promise<void>((resolve, reject) => {
      const check = () => (failure ? reject(failure) : pending <= limit ? resolve() : (waiting = check));
      check();
    });
  // The socket's chunks (16-64 KiB) are gathered into one writev of WRITE_BYTES: a write
  // per chunk costs a trip to the thread pool each.
  let gathered: Buffer[] = [];
  let gatheredBytes = 0;
  // Each chunk is written at its own position by the thread pool while the next ones
  // arrive, so disk and network overlap; only MAX_PENDING_BYTES wait in memory.
  const flush = () => {
    if (gatheredBytes === 0) return;
    const chunks = gathered;
    const size = gatheredBytes;
    gathered = [];
    gatheredBytes = 0;
    const at = position;
    position += size;
    pending += size;
    writeAll(opened, chunks, at, (error) => {
      pending -= size;
      if (error) failure ??= writeFailure(error, file);
      settled();
    });
  };
  return {
    partial,
    sink: {
      write: (chunk: Buffer) => {
        if (failure) throw failure;
        gathered.push(chunk);
        gatheredBytes += chunk.length;
        if (gatheredBytes >= WRITE_BYTES) flush();
        return pending > MAX_PENDING_BYTES ? untilBelow(MAX_PENDING_BYTES / 2) : undefined;
      },
      end: async () => {
        flush();
        await untilBelow(0);
        try {
          close();
        } catch (error) {
          throw writeFailure(error, file);
        }
      },
    },
    discard: async () => {
      // Writes still in flight finish first: closing under them could hand their fd to another file.
      gathered = [];
      gatheredBytes = 0;
      await untilBelow(0).catch(() => {});
      try {
        close();
      } catch {
        // Already failed; the file goes anyway.
      }
      fs.rmSync(partial, { force: true });
    },
  };
}

/** fs.writev (one call, no copy) until all the chunks are at `position` (a write may be short). */
function writeAll(fd: number, chunks: Buffer[], position: number, done: (error?: Error) => void): void {
  fs.writev(fd, chunks, position, (error, written) => {
    if (error) return done(error);
    const size = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
    if (written >= size) return done();
    // Short: what is left starts inside the chunk where the write stopped.
    let skip = written;
    const rest: Buffer[] = [];
    for (const chunk of chunks) {
      if (skip >= chunk.length) skip -= chunk.length;
      else {
        rest.push(skip > 0 ? chunk.subarray(skip) : chunk);
        skip = 0;
      }
    }
    writeAll(fd, rest, position + written, done);
  });
}
