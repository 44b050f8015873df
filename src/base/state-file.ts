// Reading the files of the state and config folders (budgets, journals, plans, the webhook
// inbox, the config file, tokens and locks), and the plans and journals a user names for a run
// to read. Each must be a regular file of a bounded size: a symbolic link at the last component
// is not followed (unless the user named the path), and a FIFO, a device, a socket or a folder
// is refused in one line without being read (a FIFO is opened with O_NONBLOCK, or not at all,
// so it never blocks; /dev/zero is never read into memory). Issue #42, item 4.
import fs from 'node:fs';
import { StateFileError } from './errors.js';

const KiB = 1024;
export const MiB = 1024 * KiB;
const GiB = 1024 * MiB;

/**
 * The largest each kind of file may be. Files read whole into memory are capped well below
 * what a string can hold (~512 MiB in V8); journals and plans are streamed line by line, and
 * their cap is far beyond real use (a 100,000-row plan is ~60 MB) while still bounding a read.
 */
export const STATE_FILE_LIMITS = {
  /** A governor's budget: a few hundred bytes per live process. Over it: ignored and rebuilt. */
  budget: 64 * KiB,
  /** The config file (profiles, file-kept tokens). */
  config: 16 * MiB,
  /** Small files of one record: a lock's owner, a cached token, a run's pointer to its journal. */
  small: 64 * KiB,
  /** The webhook inbox's store, read whole. */
  inbox: 256 * MiB,
  /** Results of an earlier run given to --resume as JSON, read whole (CSV and NDJSON are streamed). */
  wholeResults: 256 * MiB,
  /** Bulk journals and plans: streamed, never read whole. */
  journal: 2 * GiB,
  plan: 2 * GiB,
} as const;

export interface StateFileOptions {
  /** What the file is, for the message: `budget file`, `plan`, `journal`. */
  what: string;
  /** Larger than this is refused (StateFileError, kind `too large`). */
  maxBytes: number;
  /**
   * Follow a symbolic link at the last component: for a path the user named (`ads apply PLAN`,
   * `--resume JOURNAL`). What it names must still be a regular file. Default: a link is refused.
   */
  followLinks?: boolean;
}

const NOFOLLOW = fs.constants.O_NOFOLLOW ?? 0;
const NONBLOCK = fs.constants.O_NONBLOCK ?? 0;
const NOCTTY = fs.constants.O_NOCTTY ?? 0;

/** What is at a path, for a message: `a FIFO (named pipe)`, `a directory`, ... */
export function describeFileType(stat: fs.Stats): string {
  if (stat.isSymbolicLink()) return 'a symbolic link';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isDirectory()) return 'a directory';
  if (stat.isSocket()) return 'a socket';
  return stat.isFile() ? 'a regular file' : 'not a regular file';
}

function notRegular(file: string, what: string, stat: fs.Stats): StateFileError {
  const kind = describeFileType(stat);
  const tail = stat.isSymbolicLink() ? 'not followed' : 'not a regular file';
  return new StateFileError(`${what} ${file} is ${kind}, ${tail}`, file, kind.replace(/^an? /, ''));
}

function tooLarge(file: string, what: string, size: number, maxBytes: number): StateFileError {
  let [is, cap] = [formatBytes(size), formatBytes(maxBytes)];
  if (is === cap) [is, cap] = [`${size} bytes`, `${maxBytes} bytes`];
  return new StateFileError(`${what} ${file} is ${is}, over the ${cap} it may be`, file, 'too large');
}

function formatBytes(n: number): string {
  if (n >= GiB) return `${+(n / GiB).toFixed(1)} GiB`;
  if (n >= MiB) return `${+(n / MiB).toFixed(1)} MiB`;
  if (n >= KiB) return `${+(n / KiB).toFixed(1)} KiB`;
  return `${n} bytes`;
}

function absent(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}

/** An open state file: its descriptor and its size when opened. The caller closes it. */
export interface OpenStateFile {
  fd: number;
  size: number;
}

/**
 * Opens `file` for reading if it is a regular file of at most `maxBytes`; undefined when it does
 * not exist. Throws StateFileError when it is something else (a link, unless `followLinks`; a
 * FIFO, a device, a folder, a socket) or too large, and the error of `open` otherwise (EACCES).
 * A FIFO or device is refused by its lstat/stat, before any open; the open itself is
 * O_NONBLOCK (and O_NOFOLLOW), so one swapped in between cannot block or be followed either.
 */
export function openStateFile(file: string, options: StateFileOptions): OpenStateFile | undefined {
  const { what, maxBytes, followLinks = false } = options;
  let before: fs.Stats;
  try {
    before = followLinks ? fs.statSync(file) : fs.lstatSync(file);
  } catch (error) {
    if (absent(error)) return undefined;
    throw error;
  }
  if (!before.isFile()) throw notRegular(file, what, before);
  if (before.size > maxBytes) throw tooLarge(file, what, before.size, maxBytes);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | NONBLOCK | NOCTTY | (followLinks ? 0 : NOFOLLOW));
  } catch (error) {
    if (absent(error)) return undefined;
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw notRegular(file, what, fs.lstatSync(file));
    throw error;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw notRegular(file, what, stat);
    if (stat.size > maxBytes) throw tooLarge(file, what, stat.size, maxBytes);
    return { fd, size: stat.size };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** Reads what `open` returned, at most `maxBytes` (a file that grows past it while read is refused too). */
function readOpened(file: string, opened: OpenStateFile, options: StateFileOptions): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    // The size it had when opened, and one byte more to see the end; past it, in 64 KiB steps.
    const want = total < opened.size ? opened.size - total + 1 : 64 * KiB;
    const chunk = Buffer.allocUnsafe(Math.min(want, options.maxBytes + 1 - total, 16 * MiB));
    const n = fs.readSync(opened.fd, chunk, 0, chunk.length, null);
    if (n === 0) break;
    total += n;
    if (total > options.maxBytes) throw tooLarge(file, options.what, total, options.maxBytes);
    chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
  }
  return Buffer.concat(chunks, total);
}

/** The bytes of a state file, or undefined when it does not exist (see openStateFile for what is refused). */
export function readStateFileBytes(file: string, options: StateFileOptions): Buffer | undefined {
  const opened = openStateFile(file, options);
  if (!opened) return undefined;
  try {
    return readOpened(file, opened, options);
  } finally {
    fs.closeSync(opened.fd);
  }
}

/** The text (UTF-8) of a state file, or undefined when it does not exist (see openStateFile for what is refused). */
export function readStateFile(file: string, options: StateFileOptions): string | undefined {
  return readStateFileBytes(file, options)?.toString('utf8');
}

/**
 * A read stream of a large state file (a journal, a plan) read incrementally, after the checks
 * of openStateFile; it reads at most `maxBytes`. A missing file throws ENOENT here, at once,
 * as `fs.openSync` would (a stream would report it later as an 'error' event).
 */
export function createStateFileStream(
  file: string,
  options: StateFileOptions,
  stream: { encoding?: BufferEncoding; highWaterMark?: number; start?: number } = {},
): fs.ReadStream {
  const opened = openStateFile(file, options);
  if (!opened) throw Object.assign(new Error(`ENOENT: no such file or directory, open '${file}'`), { code: 'ENOENT', errno: -2, syscall: 'open', path: file });
  return fs.createReadStream(file, { ...stream, fd: opened.fd, end: options.maxBytes - 1, autoClose: true });
}
