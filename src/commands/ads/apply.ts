// `platform ads apply PLAN`: the plan is read whole and checked (its seals, its requests against
// their writes), then against where it goes (the API origin and account it was made for, or
// --retarget), then against the ledger of applied plans (a plan is applied once; --again makes
// a new one with new keys); then its rows are sent in its requests, under its keys.
import type { Context } from '../../context.js';
import { CommandError, errorLine, UsageError } from '../../base/errors.js';
import {
  againFileName,
  planAgain,
  planDestination,
  planIdentity,
  planKeysAt,
  plannedRows,
  readPlanHeader,
  verifyPlan,
  type VerifiedPlan,
} from '../../bulk/plan/plan.js';
import { earlierApply, goingOnLine, lockPlanApply, noteJournal, type PlanApply } from '../../bulk/runs/plan-runs.js';
import { appliedBefore, appliedRefusal, noteApplied, readLedger } from '../../bulk/runs/plan-ledger.js';
import { parseShard, shardName } from '../../bulk/shard.js';
import type { Invocation } from '../spec.js';
import { resourceNamed, sendPlanned } from './replay.js';
import type { ApplyFlags } from './spec.js';

export async function run(ctx: Context, flags: ApplyFlags, args: string[], invocation: Invocation): Promise<void> {
  const file = args[0]!;
  if (flags.again && flags.resume !== undefined) throw new UsageError('--again makes a new plan, which has no run to resume: leave out --resume');
  const header = await readPlanHeader(file);
  const resource = resourceNamed(header.resource, file);
  let plan = await verifyPlan(file, resource.idField);
  // Where this apply sends the rows, against where the plan was made.
  const client = await ctx.client();
  const origin = new URL(client.http.baseUrl).origin;
  const { account, retarget } = planDestination(plan, file, { origin, account: flags.account, retarget: flags.retarget, batchSize: flags.batchSize });
  if (flags.again && !flags.dryRun) plan = await planAnew(ctx, plan, flags, resource.idField);
  ctx.info(`plan sha256:${plan.sha256}`);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  const profile = (await ctx.profile()).name;
  const identity = planIdentity(plan.header, retarget);
  const dir = ctx.paths.runs;
  const keyOf = planKeysAt(retarget);
  const batches = new Map([...plan.batches].map(([key, rows]) => [keyOf(key), rows]));
  // A plan is applied once, one apply of it (and shard) at a time (bulk/runs/plan-runs.ts).
  const lock = flags.dryRun ? undefined : lockPlanApply(dir, { file: plan.file, plan: identity, shard }, new Date(ctx.clock.now()));
  try {
    // A plan applied whole here before is not applied again (a --resume of its journal sends only what is left).
    const query = { sha256: plan.sha256, plan: plan.header.id, origin, account, ...(shard ? { shard: shardName(shard) } : {}) };
    const applied = flags.again ? undefined : appliedBefore(readLedger(ctx.paths.plans), query);
    if (applied && flags.resume === undefined) throw appliedRefusal(dir, file, applied);
    const earlier =
      flags.resume === undefined && !flags.again ? earlierApply(dir, { file: plan.file, plan: identity, shard, profile, journal: flags.journal }) : undefined;
    if (earlier) ctx.info(goingOnLine(plan.file, earlier));
    if (!earlier && flags.journal !== undefined && !flags.dryRun) noteElsewhere(ctx, dir, { plan: identity, shard }, flags.journal);
    const outcome = await sendPlanned(
      ctx,
      { ...(earlier ? { ...flags, resume: earlier.path } : flags), batchSize: plan.header.batch_size },
      {
        argv: plan.file === file ? invocation.argv : againArgv(invocation.argv, file, plan.file),
        resource,
        mode: plan.header.mode,
        scope: { ...plan.header.scope, account },
        rows: plannedRows(plan, resource.idField, keyOf),
        batches,
        plan: identity,
      },
    );
    if (flags.dryRun || applied) return;
    noteApplied(
      ctx.paths.plans,
      {
        sha256: plan.sha256,
        plan: plan.header.id,
        file: plan.file,
        applied: new Date(ctx.clock.now()).toISOString(),
        journal: outcome.journal ?? earlier?.path,
        profile,
        origin,
        account,
        ...(shard ? { shard: shardName(shard) } : {}),
      },
      plan.file,
      (line) => ctx.info(line),
    );
  } finally {
    lock?.release();
  }
}

/**
 * `--again`: says what it does, asks (or takes --yes; without a terminal, --yes is needed),
 * then writes the new plan beside the old one and returns it, verified.
 */
async function planAnew(ctx: Context, plan: VerifiedPlan, flags: ApplyFlags, idField: string): Promise<VerifiedPlan> {
  const again = `each of the ${plan.header.rows} rows of ${plan.file} is sent again${plan.header.mode === 'create' ? ' (what it creates is created again)' : ''}`;
  if (!flags.yes && !ctx.io.stdinIsTTY) {
    throw new UsageError(`--again: ${again}, so it asks first, and stdin is not a terminal to ask on: add --yes to make and send the new plan without asking`);
  }
  const next = againFileName(plan.file);
  ctx.info(`--again: a new plan, ${next}, is made from ${plan.file} with new idempotency keys and sent: ${again}`);
  if (!flags.yes && !(await ctx.confirm('Make the new plan and send it?', false))) throw new CommandError('not applied: you declined');
  const made = await planAgain(plan, next, idField, new Date(ctx.clock.now()).toISOString());
  ctx.info(`New plan ${next}: should this apply stop, apply that file to go on (not ${plan.file} --again, which would make another)`);
  return made;
}

/** The command line of the new plan's apply: its file instead of the old one, without --again and --yes (a resume goes on with it). */
function againArgv(argv: readonly string[], file: string, next: string): string[] {
  return argv.filter((arg) => arg !== '--again' && arg !== '--yes' && arg !== '-y').map((arg) => (arg === file ? next : arg));
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
