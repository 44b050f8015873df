// Where a report's bytes go: stdout, or a file written to a new temporary file beside its
// final name (created exclusively, so a planted file or symlink is never written through),
// given its name only once whole and checked; an existing file is replaced only with --force.
// Whatever fails, the temporary file goes and the file under the final name is as it was
// (README, Reports).
import fs from 'node:fs';
import { notWritableCode, notWritableReason } from '../../../config/write-failure.js';
import type { Context } from '../../../context.js';
import { CommandError, UsageError } from '../../../base/errors.js';
import type { DownloadTarget } from '../../../http/download.js';
import { write } from '../../../base/stream-write.js';
import { partPath, removeStaleParts, syncToDisk } from '../../../base/part-file.js';

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

export interface SaveTarget extends DownloadTarget {
  /** The whole, checked file takes its name. */
  commit(): void;
  /** Removes what was written; the file under the final name stays as it was. */
  abandon(): Promise<void>;
}

export function stdoutTarget(ctx: Context): SaveTarget {
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

export function fileTarget(file: string, force: boolean): SaveTarget {
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

/** Writes `pieces` to a fresh destination of `target` and commits it; the bytes written. */
export async function writeWhole(target: SaveTarget, pieces: readonly Buffer[]): Promise<number> {
  try {
    const sink = target.open();
    // A report's rows are many small pieces: handed over in writes of WRITE_BYTES, not one each.
    let gathered: Buffer[] = [];
    let size = 0;
    for (const piece of pieces) {
      gathered.push(piece);
      size += piece.length;
      if (size < WRITE_BYTES) continue;
      await sink.write(Buffer.concat(gathered, size));
      gathered = [];
      size = 0;
    }
    if (size > 0) await sink.write(Buffer.concat(gathered, size));
    await sink.end();
    target.commit();
  } catch (error) {
    await target.abandon();
    throw error;
  }
  return pieces.reduce((sum, piece) => sum + piece.length, 0);
}
