// The ledger of applied plans: `applied.ndjson` in the plans folder ($XDG_STATE_HOME/platform/plans),
// one line per apply of a plan that ended well (every row applied, unchanged or applied
// earlier: exit 0), naming the plan by its hash (the SHA-256 of its file) and its id, where it
// was applied (origin, account), its shard, when, by which run and profile. `runs prune`
// removes journals, never this: a plan in it is not applied again on this machine, by any
// profile (`apply --again` makes a new plan). An apply that stopped or failed is not in it:
// applying the plan again goes on with its run (plan-runs.ts).
import fs from 'node:fs';
import path from 'node:path';
import { errorLine, UsageError } from '../../base/errors.js';
import { endsWithNewline } from '../../base/ndjson-append.js';
import { readStateFile } from '../../base/state-file.js';
import { parseShard } from '../shard.js';
import { listRuns, shortRunName, undoOf } from './runs.js';

/** One apply of a plan that ended well. */
export interface LedgerEntry {
  /** The SHA-256 of the plan's file. */
  sha256: string;
  /** The plan's id (its header's). */
  plan: string;
  /** The plan's file, as given to apply (resolved). */
  file: string;
  /** When the apply ended. */
  applied: string;
  /** The run that applied it (its journal's name); empty when it changed nothing and kept no journal. */
  run: string;
  journal?: string;
  profile: string;
  origin: string;
  account: string;
  /** `I/N`, when applied with --shard. */
  shard?: string;
}

const LEDGER = 'applied.ndjson';
/** About 400 bytes an apply: a hundred thousand applies and more. */
const MAX_LEDGER_BYTES = 64 * 1024 * 1024;

/** The ledger's file in the plans folder. */
export function ledgerFile(dir: string): string {
  return path.join(dir, LEDGER);
}

/** The applies in the ledger, oldest first (a line that is not one, cut short by a crash, is passed over). */
export function readLedger(dir: string): LedgerEntry[] {
  let text: string | undefined;
  try {
    text = readStateFile(ledgerFile(dir), { what: 'plan ledger', maxBytes: MAX_LEDGER_BYTES });
  } catch (error) {
    // (the state folder's path is a file: no ledger there, and nothing that applies can be kept either)
    if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return [];
    throw error;
  }
  if (!text) return [];
  const entries: LedgerEntry[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    try {
      const entry = JSON.parse(line) as Partial<LedgerEntry>;
      if (typeof entry.sha256 === 'string' && typeof entry.plan === 'string' && typeof entry.applied === 'string') entries.push(entry as LedgerEntry);
    } catch {
      // (a line cut short: the machine went down while it was appended)
    }
  }
  return entries;
}

/** What an apply is: the plan (hash and id), where it goes, and its shard. */
export interface LedgerQuery {
  sha256: string;
  plan: string;
  origin: string;
  account: string;
  shard?: string;
}

/**
 * The apply in `entries` that applied this plan (by its hash or its id) where this apply would
 * send it, covering this apply's rows: the whole plan, or this shard; for a whole plan, shards
 * that together covered it (the last of them). Undefined when there is none.
 */
export function appliedBefore(entries: readonly LedgerEntry[], query: LedgerQuery): LedgerEntry | undefined {
  const same = entries.filter((e) => (e.sha256 === query.sha256 || e.plan === query.plan) && e.origin === query.origin && e.account === query.account);
  const whole = same.findLast((e) => !e.shard || e.shard === query.shard);
  if (whole || query.shard) return whole;
  // Every shard of one count applied: the whole plan was.
  const byCount = new Map<number, Map<number, LedgerEntry>>();
  for (const entry of same) {
    const shard = parseShard(entry.shard!);
    const shards = byCount.get(shard.count) ?? new Map<number, LedgerEntry>();
    byCount.set(shard.count, shards.set(shard.index, entry));
    if (shards.size === shard.count) return [...shards.values()].sort((a, b) => a.applied.localeCompare(b.applied)).at(-1);
  }
  return undefined;
}

/** Adds an apply that ended well (0600, in a 0700 folder; a line cut short before it is closed off first). */
export function recordApplied(dir: string, entry: LedgerEntry): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = ledgerFile(dir);
  const flags = fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);
  const fd = fs.openSync(file, flags, 0o600);
  try {
    if (!fs.fstatSync(fd).isFile()) throw new UsageError(`plan ledger ${file} is not a regular file`);
    const lead = endsWithNewline(file) ? '' : '\n';
    fs.writeSync(fd, `${lead}${JSON.stringify(entry)}\n`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** Why a plan is not applied again: when, by which run and profile (and the undo of that run, if any). */
export function appliedLine(file: string, entry: LedgerEntry, undoneBy?: string): string {
  const by = entry.run ? `by run ${shortRunName(entry.run)}` : 'by a run that changed nothing';
  const shard = entry.shard ? ` (--shard ${entry.shard})` : '';
  const undone = undoneBy ? `, which run ${shortRunName(undoneBy)} undid` : '';
  return (
    `${file} (sha256:${entry.sha256.slice(0, 12)}…) was applied${shard} on ${entry.applied} ${by} (profile ${entry.profile})${undone}; ` +
    'a plan is applied once: to apply its changes again, add --again (a new plan with new idempotency keys)'
  );
}

/** The refusal of a plan the ledger has as applied: appliedLine, naming the undo of its run while both runs are kept in `runsDir`. */
export function appliedRefusal(runsDir: string, file: string, entry: LedgerEntry): UsageError {
  return new UsageError(appliedLine(file, entry, undoneBy(runsDir, entry)));
}

/** The run that undid the run a ledger entry names, while both are kept. */
function undoneBy(runsDir: string, entry: LedgerEntry): string | undefined {
  if (!entry.run) return undefined;
  const runs = listRuns(runsDir);
  const applied = runs.find((run) => run.run === entry.run);
  return applied && undoOf(runs, applied.run, applied.record.started)?.run;
}

/** The entry of an apply that ended well: its run is the journal's name (empty when it kept none). */
export function ledgerEntry(apply: Omit<LedgerEntry, 'run' | 'journal' | 'file'> & { file: string; journal?: string }): LedgerEntry {
  const { journal, file, ...rest } = apply;
  return {
    ...rest,
    file: path.resolve(file),
    run: journal ? path.basename(journal, '.ndjson') : '',
    ...(journal ? { journal: path.resolve(journal) } : {}),
  };
}

/**
 * Records an apply that ended well (`platform ads apply`, the MCP server's ads_apply). A ledger
 * that cannot be written costs only the refusal of a second apply: `warn` says so, the apply stands.
 */
export function noteApplied(dir: string, apply: Parameters<typeof ledgerEntry>[0], label: string, warn: (line: string) => void): void {
  try {
    recordApplied(dir, ledgerEntry(apply));
  } catch (error) {
    warn(`warning: could not record the apply of ${label} in ${dir} (${errorLine(error)}): a second apply of it would not be refused`);
  }
}
