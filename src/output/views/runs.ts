// `runs list` and `runs show`: the write runs kept as history, and each change of one run.
import { describeChanges, showChanges } from '../../bulk/changes/diff.js';
import { SHOWN_CHANGES } from '../../bulk/plan/dry-run.js';
import { shortRunName, type HistoryRow, type RunStatus, type RunSummary } from '../../bulk/runs/runs.js';
import type { View } from '../columns.js';
import { changesColumn } from './results.js';

/** A run as listed (JSON carries these fields). */
export interface RunRow {
  run: string;
  started: string;
  resource: string;
  mode: string;
  rows: number | null;
  profile: string;
  account: string;
  command: string;
  /** The run it undoes, if it is an undo. */
  undoes: string;
  /** Still going (its journal is locked by a process). */
  running: boolean;
  /** running, interrupted (resume it), failed (rows did not succeed), done, or unknown (an earlier version's journal). */
  status: RunStatus;
  /** When it ended ('' while running, or when it was killed). */
  ended: string;
  /** Rows that did not succeed (failed, invalid, in conflict or not sent), as of its end; null without one. */
  unfinished: number | null;
}

export function runRows(runs: readonly RunSummary[]): RunRow[] {
  return runs.map(({ run, record, running, status, end }) => ({
    run,
    started: record.started,
    resource: record.resource,
    mode: record.mode,
    rows: record.rows ?? null,
    profile: record.profile ?? '',
    account: record.scope?.account ?? '',
    command: record.command ?? '',
    undoes: record.undoes ?? '',
    running,
    status,
    ended: end?.ended ?? '',
    unfinished: end?.unfinished ?? null,
  }));
}

export const runView: View<RunRow> = {
  noun: 'runs',
  columns: [
    // A table shows the run's last part (RUN takes it too) and the minute it started; CSV and JSON the whole name and time.
    { header: 'RUN', name: 'run', csv: (r) => r.run, table: (r) => shortRunName(r.run), kind: 'id' },
    { header: 'STARTED', name: 'started', csv: (r) => r.started, table: (r) => `${r.started.slice(0, 16).replace('T', ' ')}Z`, kind: 'id' },
    { header: 'ROWS', name: 'rows', csv: (r) => (r.rows === null ? '' : String(r.rows)), align: 'right', priority: 2 },
    { header: 'STATUS', name: 'status', csv: (r) => r.status, table: (r) => (r.status === 'failed' ? `${r.unfinished} failed` : r.status), kind: 'id' },
    { header: 'PROFILE', name: 'profile', csv: (r) => r.profile, kind: 'id', priority: 1 },
    { header: 'COMMAND', name: 'command', csv: (r) => r.command, kind: 'words' },
  ],
};

/** One row of a run: what it replaced, `old -> new` (JSON carries `before` and `after` exactly). */
export interface ChangeRow {
  line: number;
  id: string;
  result: string;
  changes: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  error_code: string;
  /** The table's changes in a person's words (diff.ts); not in JSON or CSV. */
  [SHOWN_CHANGES]?: string;
}

export function* historyRows(rows: readonly HistoryRow[], idField: string): Generator<ChangeRow> {
  for (const row of rows) {
    const change = row.change;
    const after = change ? { [idField]: row.id, ...change.after } : undefined;
    // A create had nothing before: every field it set is `(none) -> value`.
    const before = change?.before ?? {};
    // A row sent with no answer shows the change it makes if it was applied.
    const changed = after && (row.result === 'ok' || row.result === 'unanswered');
    yield {
      line: row.line,
      id: row.id,
      result: row.result,
      changes: changed ? describeChanges(after, before, idField).join('; ') : row.error_message,
      ...(change?.before ? { before: change.before } : {}),
      ...(change ? { after: change.after } : {}),
      error_code: row.error_code,
      [SHOWN_CHANGES]: changed ? showChanges(after, before, idField).join('; ') : row.error_message,
    };
  }
}

export const historyView: View<ChangeRow> = {
  noun: 'changes',
  columns: [
    { header: 'LINE', name: 'line', csv: (r) => String(r.line) },
    { header: 'ID', name: 'id', csv: (r) => r.id, kind: 'id' },
    { header: 'RESULT', name: 'result', csv: (r) => r.result, kind: 'id' },
    changesColumn<ChangeRow>(),
  ],
};
