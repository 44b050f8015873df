// The durable record of a bulk run: append-only NDJSON, flushed to disk (fsync) at every
// batch. Before a batch is sent its lines and Idempotency-Key are written as in flight;
// when it completes its results are written at once, whatever the input order. A run killed
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

  private constructor(file: string, fd: number) {
    this.path = file;
    this.#fd = fd;
  }

  /** A new journal (0600), or the one being resumed, opened for appending. */
  static open(file: string, run: Omit<RunRecord, 'type' | 'started'>, now: Date, append = false): Journal {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    const fd = fs.openSync(file, append ? 'a' : 'wx', 0o600);
    const journal = new Journal(file, fd);
    if (!append) journal.#append({ type: 'run', ...run, started: now.toISOString() });
    return journal;
  }

  sent(record: Omit<SentRecord, 'type'>): void {
    this.#append({ type: 'sent', ...record });
  }

  done(record: Omit<DoneRecord, 'type'>): void {
    this.#append({ type: 'done', ...record });
  }

  close(): void {
    fs.closeSync(this.#fd);
  }

  #append(record: JournalRecord): void {
    fs.writeSync(this.#fd, `${JSON.stringify(record)}\n`);
    fs.fsyncSync(this.#fd);
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
