// The runs directory as history: every write run's journal stays there (pipeline.ts) until
// `runs prune`. A run is named by its journal's file name without `.ndjson`; its history is
// what its journal says each row replaced (row-change.ts) and how the row ended.
import fs from 'node:fs';
import path from 'node:path';
import { StateFileError, UsageError } from '../../base/errors.js';
import { openStateFile, STATE_FILE_LIMITS } from '../../base/state-file.js';
import {
  doneResults,
  ENDED_VERSION,
  journalRecords,
  type EndRecord,
  type JournalRecord,
  type JournalResult,
  type RunRecord,
  type SentRecord,
} from '../journal/journal.js';
import type { RowChange } from '../changes/row-change.js';
import { isLocked } from '../journal/journal-lock.js';
import { folderNames } from '../../base/folder-names.js';

const SUFFIX = '.ndjson';

export interface RunSummary {
  /** The run's name: its journal's file name without `.ndjson`. */
  run: string;
  path: string;
  record: RunRecord;
  /** A live process holds the run's journal: it is still going. */
  running: boolean;
  status: RunStatus;
  /** How it ended (its journal's last record), unless it was killed or is still going. */
  end?: EndRecord;
}

/**
 * `interrupted`: rows were left unsent (killed, stopped, credentials refused): resume it;
 * `failed`: it ended with rows that did not succeed; `unknown`: an earlier version's journal
 * (no end record) that is not going.
 */
export type RunStatus = 'running' | 'interrupted' | 'failed' | 'done' | 'unknown';

function summary(run: string, file: string, record: RunRecord, named = false): RunSummary {
  const running = isLocked(file);
  const last = running ? undefined : lastRecord(file, named);
  const end = last?.type === 'end' ? last : undefined;
  return { run, path: file, record, running, status: statusOf(record, running, end), ...(end ? { end } : {}) };
}

function statusOf(record: RunRecord, running: boolean, end: EndRecord | undefined): RunStatus {
  if (running) return 'running';
  if (!end) return record.version >= ENDED_VERSION ? 'interrupted' : 'unknown';
  return end.interrupted ? 'interrupted' : end.unfinished > 0 ? 'failed' : 'done';
}

/** The runs in the directory, oldest first (a journal whose first line is not a run is not listed). */
export function listRuns(dir: string): RunSummary[] {
  const names = folderNames(dir).filter((name) => name.endsWith(SUFFIX));
  const runs: RunSummary[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const record = firstRecord(file);
    if (record) runs.push(summary(name.slice(0, -SUFFIX.length), file, record));
  }
  return runs.sort((a, b) => a.record.started.localeCompare(b.record.started) || a.run.localeCompare(b.run));
}

/**
 * The undo of a run (`runs undo`, named in its record), if one was made: such a run is not
 * resumed, or its other rows would be applied over the undo. An undo names the run by its
 * journal's name and its start (two journals kept elsewhere can share a name); an earlier
 * version's undo by its name alone, and it started after the run.
 */
export function undoOf(runs: readonly RunSummary[], run: string, started: string): RunSummary | undefined {
  return runs.find(
    ({ record }) => record.undoes === run && (record.undoesStarted === undefined ? record.started >= started : record.undoesStarted === started),
  );
}

/** A run's last part (the 8 characters after the last `-`): what a table shows, and enough to name it. */
export function shortRunName(run: string): string {
  return run.slice(run.lastIndexOf('-') + 1);
}

/** The run a name stands for: its whole name, its last part (the 8 characters after the last `-`), or a journal's path; undefined when none. */
export function findRun(dir: string, name: string): RunSummary | undefined {
  const runs = listRuns(dir);
  const found = runs.filter((r) => r.run === name || r.run.endsWith(`-${name}`) || `${r.run}${SUFFIX}` === name);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UsageError(`RUN: ${name} names ${found.length} runs (${found.map((r) => r.run).join(', ')}): give the whole name`);
  if (fs.existsSync(name)) {
    const record = firstRecord(name, true);
    if (record) return summary(path.basename(name, SUFFIX), name, record, true);
    throw new UsageError(`RUN: ${name} is not the journal of a run`);
  }
  return undefined;
}

/**
 * A journal's first record, when it is a run's (a journal is listed by it). `named`: the user
 * named the path (RUN): a link is followed, and what is not a regular file is refused
 * (StateFileError); in the runs folder a link, FIFO or device is not a run and is not listed.
 */
function firstRecord(file: string, named = false): RunRecord | undefined {
  const record = parseLine(firstLine(file, named));
  return record?.type === 'run' ? record : undefined;
}

/** A journal's last whole record: how a run that was not killed ended (a line cut short by a kill has no newline after it, and does not parse). */
function lastRecord(file: string, named: boolean): JournalRecord | undefined {
  return parseLine(lastBytes(file, named)?.replace(/\n$/, '').split('\n').at(-1));
}

/** Bytes read at a time from either end of a journal (journals of big runs are tens of MB). */
const CHUNK = 4096;
/** A run record longer than this is not one (its command line holds at most a few long values). */
const MAX_FIRST_LINE = 1 << 20;

/**
 * A journal's first line, read from its start alone, however long the run record is (its
 * command line can hold a long --query); undefined when it cannot be read.
 */
function firstLine(file: string, named: boolean): string | undefined {
  return withFile(file, named, (fd) => {
    const chunks: Buffer[] = [];
    for (let at = 0; at < MAX_FIRST_LINE;) {
      const chunk = Buffer.alloc(CHUNK);
      const read = fs.readSync(fd, chunk, 0, CHUNK, at);
      const end = chunk.subarray(0, read).indexOf(0x0a);
      chunks.push(chunk.subarray(0, end < 0 ? read : end));
      if (end >= 0 || read < CHUNK) break;
      at += read;
    }
    return Buffer.concat(chunks).toString('utf8');
  });
}

/** A journal's last 4 KB: its end record, when it has one, is shorter. */
function lastBytes(file: string, named: boolean): string | undefined {
  return withFile(file, named, (fd) => {
    const size = fs.fstatSync(fd).size;
    const chunk = Buffer.alloc(Math.min(size, CHUNK));
    const read = fs.readSync(fd, chunk, 0, chunk.length, size - chunk.length);
    return chunk.subarray(0, read).toString('utf8');
  });
}

/** Reads a journal opened as a state file (never a FIFO or a device: opening one would block or never end). */
function withFile(file: string, named: boolean, read: (fd: number) => string): string | undefined {
  try {
    const opened = openStateFile(file, { what: named ? 'RUN:' : 'journal', maxBytes: STATE_FILE_LIMITS.journal, followLinks: named });
    if (!opened) return undefined;
    try {
      return read(opened.fd);
    } finally {
      fs.closeSync(opened.fd);
    }
  } catch (error) {
    if (named && error instanceof StateFileError) throw error;
    return undefined;
  }
}

function parseLine(line: string | undefined): JournalRecord | undefined {
  try {
    return line === undefined ? undefined : (JSON.parse(line) as JournalRecord);
  } catch {
    return undefined;
  }
}

/**
 * One row of a run's history: how it ended and what it replaced (none journaled: a row never
 * sent). `unanswered`: sent, and no answer journaled (the run was killed with it in flight), so
 * it may have been applied.
 */
export interface HistoryRow {
  line: number;
  key: string;
  id: string;
  campaignId?: string;
  result: JournalResult['result'] | 'unanswered';
  error_code: string;
  error_message: string;
  change?: RowChange;
}

/**
 * Each row of a run with a result, in input order: its last result, and the change of the
 * request that gave it; a row whose last request has no answer is `unanswered` (a patch's
 * under its id, a create's under no id: what it created, if anything, is not known).
 */
export async function readHistory(file: string): Promise<{ record: RunRecord; rows: HistoryRow[] }> {
  let record: RunRecord | undefined;
  /** The last request that carried each row key: its change and campaign, and the row's line. */
  const sent = new Map<string, { change?: RowChange; campaignId?: string; line: number }>();
  /** Requests not answered yet, by key: their answer may name rows by place (DoneRecord). */
  const requests = new Map<string, SentRecord>();
  const done = new Map<string, JournalResult>();
  /** Row keys whose last request has not been answered (a result deletes its key). */
  const unanswered = new Set<string>();
  for await (const parsed of journalRecords(file)) {
    if (parsed.type === 'run') record ??= parsed;
    else if (parsed.type === 'sent') {
      parsed.rows.forEach((key, i) => {
        // Sent again while its earlier request was never answered (a resumed run): that one may
        // have landed, and the read before this one saw its write, so what the run replaced is the earlier change.
        const earlier = unanswered.has(key) ? sent.get(key)?.change : undefined;
        sent.set(key, { change: earlier ?? parsed.changes?.[i] ?? undefined, campaignId: parsed.campaignId, line: parsed.lines[i]! });
        unanswered.add(key);
      });
      requests.set(parsed.key, parsed);
    } else if (parsed.type === 'done') {
      for (const result of doneResults(parsed, requests)) {
        done.set(result.key, result);
        unanswered.delete(result.key);
      }
    }
  }
  if (!record) throw new UsageError(`${file} is not the journal of a run`);
  const withSent = (row: Omit<HistoryRow, 'change' | 'campaignId'>): HistoryRow => {
    const { change, campaignId } = sent.get(row.key) ?? {};
    return { ...row, ...(campaignId ? { campaignId } : {}), ...(change ? { change } : {}) };
  };
  const answered = [...done.values()]
    .filter((result) => !unanswered.has(result.key))
    .map((result) =>
      withSent({
        line: result.line,
        key: result.key,
        id: result.id,
        result: result.result,
        error_code: result.error_code,
        error_message: result.error_message,
      }),
    );
  const inFlight = [...unanswered].map((key) =>
    withSent({
      line: sent.get(key)!.line,
      key,
      // A patch row's key is its resource's id ("#n" for the n-th row of one id); a create's id came with its answer.
      id: record.mode === 'patch' ? key.replace(/#\d+$/, '') : '',
      result: 'unanswered',
      error_code: '',
      error_message: 'sent, and no answer was journaled (the run was stopped): it may have been applied',
    }),
  );
  return { record, rows: [...answered, ...inFlight].sort((a, b) => a.line - b.line) };
}

/**
 * Removes runs older than `olderThanMs` and all but the newest `keep`; a run still going
 * stays, and so does an interrupted one beyond the count (only its age removes it: without its
 * journal it cannot be resumed, and a create run again from the start would create its rows
 * twice). Returns those removed, and the interrupted runs the count would have removed.
 */
export function pruneRuns(dir: string, rule: { olderThanMs?: number; keep?: number }, now: number): { removed: RunSummary[]; interruptedKept: RunSummary[] } {
  const runs = listRuns(dir);
  const removed: RunSummary[] = [];
  const interruptedKept: RunSummary[] = [];
  runs.forEach((run, i) => {
    if (run.running) return;
    const old = rule.olderThanMs !== undefined && now - Date.parse(run.record.started) > rule.olderThanMs;
    const beyond = rule.keep !== undefined && i < runs.length - rule.keep;
    if (!old && !beyond) return;
    if (!old && run.status === 'interrupted') {
      interruptedKept.push(run);
      return;
    }
    fs.rmSync(run.path, { force: true });
    // (a lock left by a killed run; a live one keeps its run above)
    fs.rmSync(`${run.path}.lock`, { force: true });
    removed.push(run);
  });
  return { removed, interruptedKept };
}
