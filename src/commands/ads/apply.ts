import os from 'node:os';
import path from 'node:path';
import type { Context } from '../../context.js';
import { errorLine, UsageError } from '../../base/errors.js';
import type { PlannedRow } from '../../bulk/pipeline.js';
import { planIdentity, readPlanHeader, readPlanRows } from '../../bulk/plan/plan.js';
import { runsDirectory } from '../../bulk/journal/journal.js';
import { holderText, takeLockIfWritable, type JournalLock } from '../../bulk/journal/journal-lock.js';
import { listRuns, shortRunName, undoOf, type RunSummary } from '../../bulk/runs/runs.js';
import { notedRuns, noteJournal, planFile } from '../../bulk/runs/plan-runs.js';
import { parseShard, shardName, type Shard } from '../../bulk/shard.js';
import type { Invocation } from '../spec.js';
import { resourceNamed, sendPlanned } from './replay.js';
import type { ApplyFlags } from './spec.js';

export async function run(ctx: Context, flags: ApplyFlags, args: string[], invocation: Invocation): Promise<void> {
  const file = args[0]!;
  const header = await readPlanHeader(file);
  const plan = planIdentity(header);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  // A plan is applied once: applying it again (after a kill, a failure, or by mistake) goes on
  // with the run that applied it, so a create's rows are not created twice. One apply of a
  // plan (and shard) at a time: two started together would each find no run and start one.
  const lock = flags.dryRun ? undefined : lockPlan(ctx, file, plan, shard);
  try {
    const earlier = flags.resume === undefined ? await earlierApply(ctx, file, plan, shard) : undefined;
    if (earlier) {
      if (flags.journal !== undefined) {
        throw new UsageError(`--journal: ${file} was applied by run ${earlier.run} (journal ${earlier.path}); leave out --journal to go on with that run`);
      }
      ctx.info(
        `${file} was applied by run ${shortRunName(earlier.run)} (${earlier.record.started}, ${earlier.status}): going on with that run, ` +
          'so the rows it applied are not sent again (to apply these changes again, make a new plan)',
      );
    }
    if (!earlier && flags.journal !== undefined && !flags.dryRun) noteElsewhere(ctx, plan, shard, flags.journal);
    await sendPlanned(ctx, earlier ? { ...flags, resume: earlier.path } : flags, {
      argv: invocation.argv,
      resource: resourceNamed(header.resource, file),
      mode: header.mode,
      scope: header.scope,
      rows: planned(file, header.mode),
      plan,
    });
  } finally {
    lock?.release();
  }
}

/**
 * The lock of this plan's (and shard's) apply, in the runs directory; none when that cannot be
 * written (the run's journal cannot either: the run then reports each row not sent, and why).
 */
function lockPlan(ctx: Context, file: string, plan: string, shard: Shard | undefined): JournalLock | undefined {
  return takeLockIfWritable(
    planFile(runsDirectory(ctx.env, os.homedir()), plan, shard, '.lock'),
    new Date(ctx.clock.now()),
    (holder) => new UsageError(`${file} is being applied by another run (${holderText(holder)}); wait for it to end, or stop it first`),
  );
}

/** A journal outside the runs directory is noted there, so that an apply without --journal finds its run. */
function noteElsewhere(ctx: Context, plan: string, shard: Shard | undefined, journal: string): void {
  const dir = runsDirectory(ctx.env, os.homedir());
  if (path.resolve(path.dirname(journal)) === path.resolve(dir)) return;
  try {
    noteJournal(dir, plan, shard, journal);
  } catch (error) {
    ctx.info(
      `warning: could not note ${journal} in ${dir} (${errorLine(error)}): apply this plan again with --resume ${journal}, since without it this run is not found`,
    );
  }
}

/**
 * The last run in the runs directory that applied this plan, with this profile and shard. A
 * run of it with other shards that share rows with this one (unsharded, or another count)
 * refuses the apply: its journal does not say which of this one's rows it sent.
 */
async function earlierApply(ctx: Context, file: string, plan: string, shard: Shard | undefined): Promise<RunSummary | undefined> {
  const profile = (await ctx.profile()).name;
  const name = shard && shardName(shard);
  const dir = runsDirectory(ctx.env, os.homedir());
  const all = listRuns(dir);
  const runs = [...all, ...notedRuns(dir, plan, all)]
    .filter(({ record }) => record.plan === plan && record.profile === profile)
    .sort((a, b) => a.record.started.localeCompare(b.record.started));
  const same = runs.findLast(({ record }) => record.shard === name);
  const undo = same && undoOf(all, same.run, same.record.started);
  if (undo) {
    throw new UsageError(
      `${file} was applied by run ${shortRunName(same.run)}, which run ${shortRunName(undo.run)} undid; to apply these changes again, make a new plan`,
    );
  }
  if (same) return same;
  const overlapping = runs.find(({ record }) => !record.shard || !shard || parseShard(record.shard).count !== shard.count);
  if (overlapping) {
    const how = (text: string | undefined) => (text ? `--shard ${text}` : 'no --shard');
    throw new UsageError(
      `--shard: ${shard ? 'this shard' : 'the plan'} shares rows with run ${shortRunName(overlapping.run)}, ` +
        `which applied the plan with ${how(overlapping.record.shard)}: apply it as that run did, so that no row is sent twice`,
    );
  }
  return undefined;
}

/** The plan's rows as the pipeline takes them: a patch row is sent only while its resource has the plan's current values. */
async function* planned(file: string, mode: 'create' | 'patch'): AsyncGenerator<PlannedRow> {
  for await (const row of readPlanRows(file)) {
    if (mode === 'patch' && !row.current) throw new UsageError(`${file}: line ${row.planLine}: a patch row needs the current values it was planned against`);
    yield {
      line: row.line,
      request: row.request,
      ...(row.campaign_id ? { campaignId: row.campaign_id } : {}),
      ...(row.current ? { expect: { current: row.current } } : {}),
    };
  }
}
