import type { Context } from '../../context.js';
import { errorLine } from '../../base/errors.js';
import { planIdentity, plannedRows, readPlanHeader } from '../../bulk/plan/plan.js';
import { earlierApply, goingOnLine, lockPlanApply, noteJournal, type PlanApply } from '../../bulk/runs/plan-runs.js';
import { parseShard } from '../../bulk/shard.js';
import type { Invocation } from '../spec.js';
import { resourceNamed, sendPlanned } from './replay.js';
import type { ApplyFlags } from './spec.js';

export async function run(ctx: Context, flags: ApplyFlags, args: string[], invocation: Invocation): Promise<void> {
  const file = args[0]!;
  const header = await readPlanHeader(file);
  const plan = planIdentity(header);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  const dir = ctx.paths.runs;
  // A plan is applied once, one apply of it (and shard) at a time (bulk/runs/plan-runs.ts).
  const lock = flags.dryRun ? undefined : lockPlanApply(dir, { file, plan, shard }, new Date(ctx.clock.now()));
  try {
    const earlier =
      flags.resume === undefined ? earlierApply(dir, { file, plan, shard, profile: (await ctx.profile()).name, journal: flags.journal }) : undefined;
    if (earlier) ctx.info(goingOnLine(file, earlier));
    if (!earlier && flags.journal !== undefined && !flags.dryRun) noteElsewhere(ctx, dir, { plan, shard }, flags.journal);
    await sendPlanned(ctx, earlier ? { ...flags, resume: earlier.path } : flags, {
      argv: invocation.argv,
      resource: resourceNamed(header.resource, file),
      mode: header.mode,
      scope: header.scope,
      rows: plannedRows(file, header.mode),
      plan,
    });
  } finally {
    lock?.release();
  }
}

/** A journal outside the runs directory is noted there, so that an apply without --journal finds its run. */
function noteElsewhere(ctx: Context, dir: string, { plan, shard }: Pick<PlanApply, 'plan' | 'shard'>, journal: string): void {
  try {
    noteJournal(dir, plan, shard, journal);
  } catch (error) {
    ctx.info(
      `warning: could not note ${journal} in ${dir} (${errorLine(error)}): apply this plan again with --resume ${journal}, since without it this run is not found`,
    );
  }
}
