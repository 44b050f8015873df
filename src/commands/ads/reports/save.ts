// Saving a completed report: streams its file from the download origin (never with the
// bearer token) to --out or stdout, with a byte progress bar against file_size. A URL that
// has expired is renewed once by reading the report's status again. A file is written
// beside its final name and renamed when whole, so an interrupted download leaves no
// truncated report under that name.
import fs from 'node:fs';
import path from 'node:path';
import type { ApiClient } from '../../../api/client.js';
import type { Context } from '../../../context.js';
import { CommandError } from '../../../errors.js';
import { DownloadRefusedError, type DownloadTarget } from '../../../http/download.js';
import { formatBytes } from '../../../output/progress.js';
import { write } from '../../../stream-write.js';
import type { ReportStatusResponse } from '../../../schemas/report-requests.js';

/** Where a report goes: --out FILE, --out - (stdout), or by default stdout when piped and REPORT_ID.csv on a terminal. */
export function reportDestination(ctx: Context, out: string | undefined, reportId: string): string {
  if (out !== undefined) return out;
  return ctx.io.stdoutIsTTY ? `${reportId}.csv` : '-';
}

export async function saveReport(ctx: Context, client: ApiClient, account: string, reportId: string, report: ReportStatusResponse, out: string): Promise<void> {
  let success = report.result?.success_result;
  if (!success) throw new CommandError(`report ${reportId} is ${report.status}, not COMPLETED: there is nothing to download yet`);
  const total = Number(success.file_size);
  const progress = ctx.transfer(total);
  const target = out === '-' ? stdoutTarget(ctx) : fileTarget(out);
  let bytes: number;
  const started = ctx.clock.now();
  try {
    bytes = await client.downloads
      .download(success.report_url, target, { signal: ctx.signal, onBytes: (n) => progress.update(n) })
      .catch(async (error: unknown) => {
        if (!(error instanceof DownloadRefusedError)) throw error;
        // Expired (403): the status carries a fresh URL; one renewal, then the refusal stands.
        const renewed = await client.reports.getReport(account, reportId, { signal: ctx.signal });
        success = renewed.result?.success_result;
        if (!success) throw error;
        return client.downloads.download(success.report_url, target, { signal: ctx.signal, onBytes: (n) => progress.update(n) });
      });
  } catch (error) {
    target.abandon();
    throw error;
  } finally {
    progress.clear();
  }
  target.commit();
  if (bytes !== Number(success.file_size)) {
    throw new CommandError(`report ${reportId}: received ${bytes} bytes, the API announced ${success.file_size}`);
  }
  const seconds = Math.max(ctx.clock.now() - started, 1) / 1000;
  if (out !== '-') ctx.info(`Saved report ${reportId} to ${out} (${formatBytes(bytes)} in ${seconds.toFixed(2)} s, ${formatBytes(bytes / seconds)}/s)`);
}

interface SaveTarget extends DownloadTarget {
  commit(): void;
  abandon(): void;
}

function stdoutTarget(ctx: Context): SaveTarget {
  // stdout stays open after the report: waits on back-pressure only (a slow pipe holds the download, not memory).
  const sink = { write: (chunk: Buffer) => write(ctx.io.stdout, chunk), end() {} };
  return { open: () => sink, restartable: false, commit() {}, abandon() {} };
}

/** Bytes handed to the file system and not yet written, at most: past it the socket waits. */
const MAX_PENDING_BYTES = 8 << 20;
/** The size of one file write. */
const WRITE_BYTES = 1 << 20;

function fileTarget(file: string): SaveTarget {
  const partial = path.join(path.dirname(file), `.${path.basename(file)}.part`);
  let fd: number | undefined;
  const close = () => {
    if (fd !== undefined) fs.closeSync(fd);
    fd = undefined;
  };
  return {
    // Each chunk is written at its own position by the thread pool while the next ones
    // arrive, so disk and network overlap; only MAX_PENDING_BYTES wait in memory.
    open: () => {
      close();
      const opened = fs.openSync(partial, 'w');
      fd = opened;
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
          failure ??= error;
          settled();
        });
      };
      return {
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
          close();
        },
      };
    },
    restartable: true,
    commit: () => fs.renameSync(partial, file),
    abandon: () => {
      close();
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
