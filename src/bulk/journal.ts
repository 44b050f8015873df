// The durable record of a bulk run: append-only NDJSON, flushed to disk (fsync) at every
// batch. Before a batch is sent its lines and Idempotency-Key are written as in flight, and
// the send waits until that is on disk; when it completes its results are written at once,
// whatever the input order, and flushed without waiting (a result lost with the machine
// only means its batch is resent with its key). A run killed
// at any moment is resumed from it: completed rows are never sent again, and batches that
// were in flight are resent with their original key, so a server that honours the key
// applies nothing twice.
import fs from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { UsageError } from '../errors.js';
import type { ResultRow } from './results.js';

/** The first record: what the run was, to refuse a journal of another resource or mode. */
export interface RunRecord {
  type: 'run';
  resource: string;
  mode: string;
  started: string;
}

/** A batch about to be sent: its key, and the input lines of its items in order. */
export interface SentRecord {
  type: 'sent';
  key: string;
  lines: number[];
  campaignId?: string;
}

/** A batch's results (or rows given up without a request, e.g. invalid ones). */
export interface DoneRecord {
  type: 'done';
  key?: string;
  results: ResultRow[];
}

type JournalRecord = RunRecord | SentRecord | DoneRecord;

/** Where journals go unless --journal names one: $XDG_STATE_HOME/platform/runs. */
export function runsDirectory(env: Readonly<Record<string, string | undefined>>, homedir: string): string {
  const base = env.XDG_STATE_HOME || path.join(env.HOME || homedir, '.local', 'state');
  return path.join(base, 'platform', 'runs');
}

export class Journal {
  readonly #fd: number;
  readonly path: string;
  /** The fsync under way, and the one queued after it for records written meanwhile. */
  #syncing: Promise<void> | undefined;
  #queued: Promise<void> | undefined;

  private constructor(file: string, fd: number) {
    this.path = file;
    this.#fd = fd;
  }

  /** A new journal (0600), or the one being resumed, opened for appending. */
  static open(file: string, run: Omit<RunRecord, 'type' | 'started'>, now: Date, append = false): Journal {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fd = fs.openSync(file, append ? 'a' : 'wx', 0o600);
    const journal = new Journal(file, fd);
    if (!append) journal.#write({ type: 'run', ...run, started: now.toISOString() });
    // A record cut short (the machine went down mid-write) must not swallow the next one.
    else if (!endsWithNewline(file)) fs.writeSync(fd, '\n');
    return journal;
  }

  /** Resolves once the record is on disk: only then may the batch be sent. */
  async sent(record: Omit<SentRecord, 'type'>): Promise<void> {
    this.#write({ type: 'sent', ...record });
    await this.#flush();
  }

  done(record: Omit<DoneRecord, 'type'>): void {
    this.#write({ type: 'done', ...record });
    this.#flush().catch(() => undefined); // close() flushes again and reports
  }

  close(): void {
    fs.fsyncSync(this.#fd);
    fs.closeSync(this.#fd);
  }

  #write(record: JournalRecord): void {
    // Written at once (a killed process loses nothing written); made durable by #flush.
    fs.writeSync(this.#fd, `${JSON.stringify(record)}\n`);
  }

  /**
   * One fsync covers every record written before it starts, so batches sent together share
   * one (off the main thread); records written while one runs wait for the next.
   */
  #flush(): Promise<void> {
    if (!this.#syncing) {
      this.#syncing = new Promise<void>((resolve, reject) => fs.fsync(this.#fd, (error) => (error ? reject(error) : resolve()))).finally(() => {
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

/** What a journal says of a run: the rows with a final result, and the batches still in flight. */
export interface JournalState {
  run: RunRecord;
  /** Final results by input line. */
  done: Map<number, ResultRow>;
  /** Batches sent whose results were never written: resent with their key. */
  inFlight: SentRecord[];
}

export async function readJournal(file: string): Promise<JournalState> {
  if (!fs.existsSync(file)) throw new UsageError(`--resume: no such file ${file}`);
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Infinity });
  let run: RunRecord | undefined;
  const done = new Map<number, ResultRow>();
  const sent = new Map<string, SentRecord>();
  let number = 0;
  for await (const line of lines) {
    number++;
    if (!line.trim()) continue;
    let record: JournalRecord;
    try {
      record = JSON.parse(line) as JournalRecord;
    } catch {
      // A kill can cut the last line short; everything before it is whole.
      continue;
    }
    if (record.type === 'run') run = record;
    else if (record.type === 'sent') sent.set(record.key, record);
    else if (record.type === 'done') {
      if (record.key) sent.delete(record.key);
      for (const result of record.results) done.set(result.line, result);
    }
  }
  if (!run) throw new UsageError(`--resume: ${file} is not a journal of a bulk run (line ${number || 1})`);
  // A batch whose rows all have results (an item retried in a later batch) is not in flight.
  const inFlight = [...sent.values()].filter((batch) => batch.lines.some((line) => !done.has(line)));
  return { run, done, inFlight };
}

function endsWithNewline(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const last = Buffer.alloc(1);
    return size === 0 || (fs.readSync(fd, last, 0, 1, size - 1) === 1 && last[0] === 0x0a);
  } finally {
    fs.closeSync(fd);
  }
}

/** Whether a file is a journal (its first record is a run), not a results file. */
export function isJournal(file: string): boolean {
  try {
    const fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(32);
    const read = fs.readSync(fd, head, 0, 32, 0);
    fs.closeSync(fd);
    return head.subarray(0, read).toString('utf8').startsWith('{"type":"run"');
  } catch {
    return false;
  }
}
