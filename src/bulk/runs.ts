// The runs directory as history: every write run's journal stays there (pipeline.ts) until
// `runs prune`. A run is named by its journal's file name without `.ndjson`; its history is
// what its journal says each row replaced (row-change.ts) and how the row ended.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { doneResults, journalRecords, type JournalResult, type RunRecord, type SentRecord } from './journal.js';
import type { RowChange } from './row-change.js';
import { isLocked } from './journal-lock.js';

const SUFFIX = '.ndjson';

export interface RunSummary {
  /** The run's name: its journal's file name without `.ndjson`. */
  run: string;
  path: string;
  record: RunRecord;
  /** A live process holds the run's journal: it is still going. */
  running: boolean;
}

/** The runs in the directory, oldest first (a journal whose first line is not a run is not listed). */
export function listRuns(dir: string): RunSummary[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.endsWith(SUFFIX));
  } catch {
    return [];
  }
  const runs: RunSummary[] = [];
  for (const name of names) {
    const file = path.join(dir, name);
    const record = firstRecord(file);
    if (record) runs.push({ run: name.slice(0, -SUFFIX.length), path: file, record, running: isLocked(file) });
  }
  return runs.sort((a, b) => a.record.started.localeCompare(b.record.started) || a.run.localeCompare(b.run));
}

/** The run a name stands for: its whole name, its last part (the 8 characters after the last `-`), or a journal's path; undefined when none. */
export function findRun(dir: string, name: string): RunSummary | undefined {
  const runs = listRuns(dir);
  const found = runs.filter((r) => r.run === name || r.run.endsWith(`-${name}`) || `${r.run}${SUFFIX}` === name);
  if (found.length === 1) return found[0]!;
  if (found.length > 1) throw new UsageError(`RUN: ${name} names ${found.length} runs (${found.map((r) => r.run).join(', ')}): give the whole name`);
  if (fs.existsSync(name)) {
    const record = firstRecord(name);
    if (record) return { run: path.basename(name, SUFFIX), path: name, record, running: isLocked(name) };
    throw new UsageError(`RUN: ${name} is not the journal of a run`);
  }
  return undefined;
}

function firstRecord(file: string): RunRecord | undefined {
  try {
    const fd = fs.openSync(file, 'r');
    try {
      const head = Buffer.alloc(4096);
      const read = fs.readSync(fd, head, 0, head.length, 0);
      const line = head.subarray(0, read).toString('utf8').split('\n')[0]!;
      const record = JSON.parse(line) as RunRecord;
      return record.type === 'run' ? record : undefined;
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
}

/** One row of a run's history: how it ended and what it replaced (none journaled: a row never sent). */
export interface HistoryRow {
  line: number;
  key: string;
  id: string;
  campaignId?: string;
  result: JournalResult['result'];
  error_code: string;
  error_message: string;
  change?: RowChange;
}

/** Each row of a run with a result, in input order: its last result, and the change of the request that gave it. */
export async function readHistory(file: string): Promise<{ record: RunRecord; rows: HistoryRow[] }> {
  let record: RunRecord | undefined;
  /** The change and campaign of each row key, from the last request that carried it. */
  const sent = new Map<string, { change?: RowChange; campaignId?: string }>();
  /** Requests not answered yet, by key: their answer may name rows by place (DoneRecord). */
  const requests = new Map<string, SentRecord>();
  const done = new Map<string, JournalResult>();
  for await (const parsed of journalRecords(file)) {
    if (parsed.type === 'run') record ??= parsed;
    else if (parsed.type === 'sent') {
      parsed.rows.forEach((key, i) => sent.set(key, { change: parsed.changes?.[i] ?? undefined, campaignId: parsed.campaignId }));
      requests.set(parsed.key, parsed);
    } else if (parsed.type === 'done') for (const result of doneResults(parsed, requests)) done.set(result.key, result);
  }
  if (!record) throw new UsageError(`${file} is not the journal of a run`);
  const rows = [...done.values()].map((result): HistoryRow => {
    const { change, campaignId } = sent.get(result.key) ?? {};
    return {
      line: result.line,
      key: result.key,
      id: result.id,
      ...(campaignId ? { campaignId } : {}),
      result: result.result,
      error_code: result.error_code,
      error_message: result.error_message,
      ...(change ? { change } : {}),
    };
  });
  return { record, rows: rows.sort((a, b) => a.line - b.line) };
}

/** Removes finished runs older than `olderThanMs` and all but the newest `keep`; a run still going stays. Returns those removed. */
export function pruneRuns(dir: string, rule: { olderThanMs?: number; keep?: number }, now: number): RunSummary[] {
  const runs = listRuns(dir);
  const removed: RunSummary[] = [];
  runs.forEach((run, i) => {
    if (run.running) return;
    const old = rule.olderThanMs !== undefined && now - Date.parse(run.record.started) > rule.olderThanMs;
    const beyond = rule.keep !== undefined && i < runs.length - rule.keep;
    if (!old && !beyond) return;
    fs.rmSync(run.path, { force: true });
    // (a lock left by a killed run; a live one keeps its run above)
    fs.rmSync(`${run.path}.lock`, { force: true });
    removed.push(run);
  });
  return removed;
}
