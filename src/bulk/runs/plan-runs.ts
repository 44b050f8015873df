// The runs that applied a plan. A run's journal keeps the plan's id, so the runs directory
// finds the runs kept there; an apply given `--journal` elsewhere leaves a note in the runs
// directory naming that journal, or a later apply without `--journal` would not find the run
// and would apply the plan again (a create's rows created twice; the API would answer its
// requests' keys as it did, within the 24 hours it keeps them). A plan is applied once: one
// that ended well is in the ledger (plan-ledger.ts) and not applied again; applying one that
// stopped (a kill, a failure) goes on with the run that applied it, and one apply of a plan
// (and shard) runs at a time: two started together would each find no run and start one.
import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../base/errors.js';
import { readStateFile, STATE_FILE_LIMITS } from '../../base/state-file.js';
import { holderText, takeLockIfWritable, type JournalLock } from '../journal/journal-lock.js';
import { findRun, listRuns, shortRunName, undoOf, type RunSummary } from './runs.js';
import { parseShard, shardFlag, shardName, shardPart, type Shard } from '../shard.js';
import { folderNames } from '../../base/folder-names.js';

const NOTE_SUFFIX = '.journal';

/** A file of this plan (and shard) in the runs directory: its apply's lock (`.lock`), its note (`.journal`). */
export function planFile(dir: string, plan: string, shard: Shard | undefined, suffix: string): string {
  return path.join(dir, `plan-${plan}${shardPart(shard)}${suffix}`);
}

/** An apply of a plan: the plan's file and id, the profile it is applied with, its shard, and the journal it was given (--journal). */
export interface PlanApply {
  file: string;
  plan: string;
  profile: string;
  shard: Shard | undefined;
  journal?: string | undefined;
}

/**
 * The lock of this plan's (and shard's) apply, in the runs directory; none when that cannot be
 * written (the run's journal cannot either: the run then reports each row not sent, and why).
 */
export function lockPlanApply(dir: string, apply: Pick<PlanApply, 'file' | 'plan' | 'shard'>, now: Date): JournalLock | undefined {
  return takeLockIfWritable(
    planFile(dir, apply.plan, apply.shard, '.lock'),
    now,
    (holder) => new UsageError(`${apply.file} is being applied by another run (${holderText(holder)}); wait for it to end, or stop it first`),
  );
}

/**
 * The last run in the runs directory (or noted there) that applied this plan, with this
 * profile and shard: the apply goes on with it (earlierApplyOf).
 */
export function earlierApply(dir: string, apply: PlanApply): RunSummary | undefined {
  const listed = listRuns(dir);
  return earlierApplyOf([...listed, ...notedRuns(dir, apply.plan, listed)], listed, apply);
}

/**
 * The last of `runs` that applied this plan, with this profile and shard. Refused: one undone
 * since (by a run among `listed`), whose changes would be applied over the undo; one the apply
 * names another journal for (--journal); and, when there is none, a run of the plan with other
 * shards that share rows with this one (unsharded, or another count): its journal does not
 * say which of this one's rows it sent.
 */
export function earlierApplyOf(runs: readonly RunSummary[], listed: readonly RunSummary[], apply: PlanApply): RunSummary | undefined {
  const { file, plan, profile, shard } = apply;
  const name = shard && shardName(shard);
  const applied = runs
    .filter(({ record }) => record.plan === plan && record.profile === profile)
    .sort((a, b) => a.record.started.localeCompare(b.record.started));
  const same = applied.findLast(({ record }) => record.shard === name);
  const undo = same && undoOf(listed, same.run, same.record.started);
  if (undo) {
    throw new UsageError(
      `${file} was applied by run ${shortRunName(same.run)}, which run ${shortRunName(undo.run)} undid; to apply these changes again, add --again (a new plan with new idempotency keys)`,
    );
  }
  if (same) {
    if (apply.journal !== undefined) {
      throw new UsageError(`--journal: ${file} was applied by run ${same.run} (journal ${same.path}); leave out --journal to go on with that run`);
    }
    return same;
  }
  const overlapping = applied.find(({ record }) => !record.shard || !shard || parseShard(record.shard).count !== shard.count);
  if (overlapping) {
    throw new UsageError(
      `--shard: ${shard ? 'this shard' : 'the plan'} shares rows with run ${shortRunName(overlapping.run)}, ` +
        `which applied the plan with ${shardFlag(overlapping.record.shard)}: apply it as that run did, so that no row is sent twice`,
    );
  }
  return undefined;
}

/** What an apply of a plan that a run applied says: it goes on with that run. */
export function goingOnLine(file: string, earlier: RunSummary): string {
  return (
    `${file} was applied by run ${shortRunName(earlier.run)} (${earlier.record.started}, ${earlier.status}): going on with that run, ` +
    'so the rows it applied are not sent again (to apply these changes again, add --again)'
  );
}

/**
 * Notes that this plan (and shard) is applied by the run of `journal`, kept outside the runs
 * directory (one kept in it is found there without a note).
 */
export function noteJournal(dir: string, plan: string, shard: Shard | undefined, journal: string): void {
  if (path.resolve(path.dirname(journal)) === path.resolve(dir)) return;
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(planFile(dir, plan, shard, NOTE_SUFFIX), `${path.resolve(journal)}\n`, { mode: 0o600 });
}

/** The runs of this plan that notes name (journals kept elsewhere that still exist), besides `listed`. */
export function notedRuns(dir: string, plan: string, listed: readonly RunSummary[]): RunSummary[] {
  const names = folderNames(dir).filter((name) => name.startsWith(`plan-${plan}`) && name.endsWith(NOTE_SUFFIX));
  const known = new Set(listed.map((run) => path.resolve(run.path)));
  const runs: RunSummary[] = [];
  for (const name of names) {
    // A note that is not a small regular file (a FIFO would block apply) is no note.
    let journal: string | undefined;
    try {
      journal = readStateFile(path.join(dir, name), { what: 'plan note', maxBytes: STATE_FILE_LIMITS.small })?.trim();
    } catch {
      continue;
    }
    if (!journal || known.has(journal) || !fs.existsSync(journal)) continue;
    const run = findRunQuietly(dir, journal);
    if (run?.record.plan === plan) runs.push(run);
  }
  return runs;
}

/** The run of a journal; none when it is no longer a run's journal. */
function findRunQuietly(dir: string, journal: string): RunSummary | undefined {
  try {
    return findRun(dir, journal);
  } catch {
    return undefined;
  }
}
