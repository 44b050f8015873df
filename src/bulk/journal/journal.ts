// The durable record of a bulk run: append-only NDJSON, flushed to disk (fsync) at every
// batch. Before a batch is sent its rows (by identity: row-identity.ts) and Idempotency-Key
// are written as in flight, and the send waits until that is on disk; when it completes its
// results are written at once, whatever the input order, and flushed without waiting (a
// result lost with the machine only means its batch is resent with its key). A run killed
// at any moment is resumed from it: completed rows are never sent again, and batches that
// were in flight are resent with their original key, so a server that honours the key
// applies nothing twice. A journal that cannot be written (a full disk) is not a crash: the
// first failure is kept, nothing more is written, and the runner sends nothing more.
import fs from 'node:fs';
import path from 'node:path';
import { StateFileError, UsageError } from '../../base/errors.js';
import { endsWithNewline } from '../../base/ndjson-append.js';
import { createStateFileStream, openStateFile, STATE_FILE_LIMITS } from '../../base/state-file.js';
import { boundedLines } from '../../base/bounded-lines.js';
import type { ResultRow } from '../results.js';
import type { RowIdentity } from '../row-identity.js';
import type { RowChange } from '../changes/row-change.js';
import type { RowCounts } from '../../base/io.js';

/**
 * Journals name rows by identity since version 2; earlier ones named them by line. Version 3
 * journals a row that succeeded under its own key by its place in the request (DoneRecord).
 * Version 4 ends each run that was not killed with an end record (EndRecord), and keeps the
 * command's arguments: a version 4 journal without an end record at its end was cut short.
 */
const VERSION = 4;
const READABLE_VERSIONS: readonly number[] = [2, 3, 4];
/** The first version whose runs end with an end record (EndRecord). */
export const ENDED_VERSION = 4;

/** The first record: what the run was, to refuse a journal of another resource or mode. */
export interface RunRecord {
  type: 'run';
  version: number;
  resource: string;
  mode: string;
  /** `I/N` of a --shard run: only that shard's rows are its to resume. */
  shard?: string;
  started: string;
  /** For `runs list`: the command line (after `platform`), the profile, the account (and campaign) and the input's rows. */
  command?: string;
  /** The command's arguments (after `platform`), for the command that resumes the run (version 4). */
  argv?: string[];
  profile?: string;
  scope?: { account: string; campaign?: string; adGroup?: string };
  rows?: number;
  /** The run this one undoes (`runs undo`). */
  undoes?: string;
  /** When that run started: with its name, which run it is (two journals elsewhere can share a name). */
  undoesStarted?: string;
  /** The plan this run applies (`ads apply`): a second apply of it goes on with this run. */
  plan?: string;
}

/** A batch about to be sent: its key, and its rows in the order of its items (keys, content hashes, input lines). */
export interface SentRecord {
  type: 'sent';
  key: string;
  rows: string[];
  hashes: string[];
  lines: number[];
  campaignId?: string;
  /** What each row replaces (row-change.ts), in the order of `rows`: the run's history, for `runs show` and `runs undo`. */
  changes?: Array<RowChange | null>;
}

/** A row's result as journaled: with the identity of the row it is for. */
export type JournalResult = ResultRow & RowIdentity;

/** A batch's results; none for a batch given up (its rows were sent another way). */
export interface DoneRecord {
  type: 'done';
  key?: string;
  /** Results written whole: those `ok` does not name. */
  results: JournalResult[];
  /**
   * Rows that succeeded with their key as their id (a patch row's usual result), by their
   * place in the request's sent record: a number each, not a result repeating the sent
   * record's key, line and hash (a 100,000-row patch's journal: 43 MB -> 25 MB).
   */
  ok?: number[];
}

/**
 * A done record's results, whole: those it names by place are made from its request's sent
 * record, taken from `unanswered` (the sent records read so far whose answer has not come).
 */
export function doneResults(record: Pick<DoneRecord, 'key' | 'results' | 'ok'>, unanswered: Map<string, SentRecord>): JournalResult[] {
  // (a request's sent record is on disk before it goes, so before its answer's done record)
  const request = record.key === undefined ? undefined : unanswered.get(record.key);
  if (record.key !== undefined) unanswered.delete(record.key);
  if (!record.ok?.length || !request) return record.results;
  const named = record.ok.map((at): JournalResult => ({
    line: request.lines[at]!,
    id: request.rows[at]!,
    result: 'ok',
    error_code: '',
    error_message: '',
    key: request.rows[at]!,
    hash: request.hashes[at]!,
  }));
  return [...named, ...record.results];
}

/**
 * The last record of each run (or resume) that was not killed: how it ended. A resume
 * appends to the same journal, so the run's state is what its last record says.
 */
export interface EndRecord {
  type: 'end';
  ended: string;
  /** This run's results (rows applied by an earlier run of the journal are `skipped`). */
  results: RowCounts;
  /** Rows that did not succeed, now or earlier: failed, invalid, in conflict or not sent. */
  unfinished: number;
  /** Stopped with rows left unsent (Ctrl-C, a signal, credentials refused). */
  interrupted: boolean;
}

export type JournalRecord = RunRecord | SentRecord | DoneRecord | EndRecord;

export class Journal {
  readonly #fd: number | undefined;
  readonly path: string;
  /** The first write or flush that failed (a full disk): nothing more is written. */
  #failure: Error | undefined;
  /** The fsync under way, and the one queued after it for records written meanwhile. */
  #syncing: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

  private constructor(file: string, fd: number | undefined, failure?: Error) {
    this.path = file;
    this.#fd = fd;
    this.#failure = failure;
  }

  /** A new journal (0600), or the one being resumed, opened for appending. Throws if it cannot be created. */
  static open(file: string, run: Omit<RunRecord, 'type' | 'started' | 'version'>, now: Date, append = false): Journal {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fd = fs.openSync(file, append ? 'a' : 'wx', 0o600);
    const journal = new Journal(file, fd);
    try {
      if (!append) journal.#write({ type: 'run', version: VERSION, ...run, started: now.toISOString() });
      // A record cut short (the machine went down mid-write) must not swallow the next one.
      else if (!endsWithNewline(file)) writeAll(fd, '\n');
    } catch (error) {
      journal.#fail(error);
    }
    return journal;
  }

  /** A journal that could not be opened: the run sends nothing and says why. */
  static unwritable(file: string, error: unknown): Journal {
    return new Journal(file, undefined, asError(error));
  }

  /** Why the journal could not be written, once it could not. */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Resolves once the record is on disk: only then may the batch be sent. Rejects (with `failure`) when it cannot be written. */
  async sent(record: Omit<SentRecord, 'type'>): Promise<void> {
    if (this.#failure) throw this.#failure;
    try {
      this.#write({ type: 'sent', ...record });
      await this.#flush();
    } catch (error) {
      throw this.#fail(error);
    }
  }

  /** Batches that were in flight and whose rows are sent another way (resume-check.ts): on disk before anything is sent. */
  async abandon(keys: readonly string[]): Promise<void> {
    if (this.#failure || !keys.length) return;
    try {
      for (const key of keys) this.#write({ type: 'done', key, results: [] });
      await this.#flush();
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Never throws: a result that cannot be journaled is still the run's result (its batch stays in flight there). */
  done(record: Omit<DoneRecord, 'type'>): void {
    if (this.#append({ type: 'done', ...record })) this.#flush().catch((error: unknown) => this.#fail(error));
  }

  /** How the run ended, as its last record (written at once; on disk with `close`). Never throws. */
  end(record: Omit<EndRecord, 'type'>): void {
    this.#append({ type: 'end', ...record });
  }

  /** Writes a record unless the journal has failed; a failure to write is kept, not thrown. Whether it was written. */
  #append(record: JournalRecord): boolean {
    if (this.#failure) return false;
    try {
      this.#write(record);
      return true;
    } catch (error) {
      this.#fail(error);
      return false;
    }
  }

  close(): void {
    if (this.#fd === undefined) return;
    try {
      if (!this.#failure) fs.fsyncSync(this.#fd);
    } catch (error) {
      this.#fail(error);
    }
    fs.closeSync(this.#fd);
  }

  #fail(error: unknown): Error {
    this.#failure ??= asError(error);
    return this.#failure;
  }

  #write(record: JournalRecord): void {
    // Written at once (a killed process loses nothing written); made durable by #flush.
    writeAll(this.#fd!, `${JSON.stringify(record)}\n`);
  }

  /**
   * One fsync covers every record written before it starts, so batches sent together share
   * one (off the main thread); records written while one runs wait for the next.
   */
  #flush(): Promise<void> {
    if (!this.#syncing) {
      this.#syncing = new Promise<void>((resolve, reject) => fs.fsync(this.#fd!, (error) => (error ? reject(error) : resolve()))).finally(() => {
        this.#syncing = undefined;
      });
      return this.#syncing;
    }
    this.#queued ??= this.#syncing
      .catch(() => undefined)
      .then(() => {
        this.#queued = undefined;
        return this.#flush();
      });
    return this.#queued;
  }
}

/** A write can land in part (a disk filling up): the rest is written, or the error thrown. */
function writeAll(fd: number, text: string): void {
  // The text as it is (no copy into a Buffer first): written whole but for a disk filling up.
  const written = fs.writeSync(fd, text);
  const length = Buffer.byteLength(text);
  if (written === length) return;
  const data = Buffer.from(text);
  for (let at = written; at < length;) at += fs.writeSync(fd, data, at, length - at);
}

function asError(error: unknown): Error {
  return error instanceof Error ? error : new Error(String(error));
}

/** What a journal says of a run: the rows with a result, and the batches still in flight. */
export interface JournalState {
  run: RunRecord;
  /** The last result of each row, by row key. */
  done: Map<string, JournalResult>;
  /** Batches sent whose results were never written: resent with their key. */
  inFlight: SentRecord[];
  /** The key of every request the run sent (a plan's next round of a request follows its last: runner.ts, planKey). */
  keys: ReadonlySet<string>;
}

/**
 * How a journal is opened: a regular file of at most 2 GiB (a 100,000-row run's is tens of MB),
 * streamed; a FIFO or a device is refused (StateFileError) before it is read. `what` starts the
 * message (the flag that named it); a link is followed where the user named the path.
 */
export interface JournalOpen {
  what?: string;
  followLinks?: boolean;
}

function journalFile({ what = 'journal', followLinks = true }: JournalOpen = {}) {
  return { what, followLinks, maxBytes: STATE_FILE_LIMITS.journal };
}

/** A journal's records in order (a line cut short is skipped); returns how many lines it read. */
export async function* journalRecords(file: string, open: JournalOpen = {}): AsyncGenerator<JournalRecord, number> {
  let number = 0;
  for await (const line of boundedLines(createStateFileStream(file, journalFile(open)))) {
    number++;
    // A line longer than any record is no record either (its bytes were not kept).
    if (line === undefined || !line.trim()) continue;
    let record: JournalRecord;
    try {
      record = JSON.parse(line) as JournalRecord;
    } catch {
      // A kill (or a full disk) can cut a line short; everything before it is whole.
      continue;
    }
    yield record;
  }
  return number;
}

export async function readJournal(file: string, flag = '--resume'): Promise<JournalState> {
  if (!openJournal(file, flag)) throw new UsageError(`${flag}: no such file ${file}`);
  let run: RunRecord | undefined;
  const done = new Map<string, JournalResult>();
  const sent = new Map<string, SentRecord>();
  // Walked by hand, not with for-await: the line count (for the message below) is the generator's return value.
  const records = journalRecords(file, { what: `${flag}:` });
  let next: IteratorResult<JournalRecord, number>;
  while (!(next = await records.next()).done) {
    const record = next.value;
    if (record.type === 'run') run = record;
    else if (record.type === 'sent') sent.set(record.key, record);
    else if (record.type === 'done') for (const result of doneResults(record, sent)) done.set(result.key, result);
  }
  if (!run) throw new UsageError(`${flag}: ${file} is not a journal of a bulk run (line ${next.value || 1})`);
  if (run.version > VERSION) {
    throw new UsageError(`${flag}: ${file} was written by a newer version of platform (journal version ${run.version}); resume it with that version`);
  }
  if (!READABLE_VERSIONS.includes(run.version)) {
    throw new UsageError(
      `${flag}: ${file} was written by an earlier version of platform, which named rows by line; it cannot be resumed (resume from the run's results instead)`,
    );
  }
  // A batch whose rows all have results (an item retried in a later batch) is not in flight.
  const inFlight = [...sent.values()].filter((batch) => batch.rows.some((key) => !done.has(key)));
  return { run, done, inFlight, keys: new Set(sent.keys()) };
}

/** Whether `file` exists, after the checks of a journal (a FIFO or device: StateFileError, named by `flag`). */
function openJournal(file: string, flag: string): boolean {
  const opened = openStateFile(file, journalFile({ what: `${flag}:` }));
  if (opened) fs.closeSync(opened.fd);
  return opened !== undefined;
}

/**
 * Whether a file is a journal (its first record is a run), not a results file. Either must be a
 * regular file: a FIFO, a device (a link to /dev/zero) or a folder is refused (StateFileError).
 */
export function isJournal(file: string, flag = '--resume'): boolean {
  let opened;
  try {
    opened = openStateFile(file, journalFile({ what: `${flag}:` }));
  } catch (error) {
    if (error instanceof StateFileError) throw error;
    return false;
  }
  if (!opened) return false;
  try {
    const head = Buffer.alloc(32);
    const read = fs.readSync(opened.fd, head, 0, 32, 0);
    return head.subarray(0, read).toString('utf8').startsWith('{"type":"run"');
  } catch {
    return false;
  } finally {
    fs.closeSync(opened.fd);
  }
}
