// `platform ads apply PLAN`: the plan is read whole and checked (its seals, its requests against
// their writes), then against where it goes (the API origin and account it was made for, or
// --retarget), then against the ledger of applied plans (a plan is applied once; --again makes
// a new one with new keys); then its rows are sent in its requests, under its keys. The steps
// from the lock on are bulk/plan/apply-plan.ts, which the MCP server's ads_apply runs too.
import type { Context } from '../../context.js';
import { CommandError, errorLine, UsageError } from '../../base/errors.js';
import { applyStoredPlan, readVerifiedPlan } from '../../bulk/plan/apply-plan.js';
import { againFileName, planAgain, planDestination, type VerifiedPlan } from '../../bulk/plan/plan.js';
import { goingOnLine, noteJournal, type PlanApply } from '../../bulk/runs/plan-runs.js';
import { appliedRefusal } from '../../bulk/runs/plan-ledger.js';
import { parseShard } from '../../bulk/shard.js';
import type { Invocation } from '../spec.js';
import { sendPlanned } from './replay.js';
import type { ApplyFlags } from './spec.js';

export async function run(ctx: Context, flags: ApplyFlags, args: string[], invocation: Invocation): Promise<void> {
  const file = args[0]!;
  if (flags.again && flags.resume !== undefined) throw new UsageError('--again makes a new plan, which has no run to resume: leave out --resume');
  const verified = await readVerifiedPlan(file, file);
  const { resource } = verified;
  let { plan } = verified;
  // Where this apply sends the rows, against where the plan was made.
  const client = await ctx.client();
  const origin = new URL(client.http.baseUrl).origin;
  const { account, retarget } = planDestination(plan, file, { origin, account: flags.account, retarget: flags.retarget, batchSize: flags.batchSize });
  if (flags.again && !flags.dryRun) plan = await planAnew(ctx, plan, flags, resource.idField);
  ctx.info(`plan sha256:${plan.sha256}`);
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  const dir = ctx.paths.runs;
  const target = { runsDir: dir, plansDir: ctx.paths.plans, origin, account, profile: (await ctx.profile()).name, retarget, shard, now: () => ctx.clock.now() };
  // (bulk/plan/apply-plan.ts: the lock, the ledger, an earlier apply to go on with, the rows under the plan's keys)
  await applyStoredPlan(plan, resource, target, {
    resume: flags.resume,
    again: flags.again,
    journal: flags.journal,
    dryRun: flags.dryRun,
    // A plan applied whole here before is not applied again (a --resume of its journal sends only what is left).
    appliedBefore: (entry) => {
      throw appliedRefusal(dir, file, entry);
    },
    earlier: (earlier, identity) => {
      if (earlier) ctx.info(goingOnLine(plan.file, earlier));
      else if (flags.journal !== undefined && !flags.dryRun) noteElsewhere(ctx, dir, { plan: identity, shard }, flags.journal);
    },
    send: async ({ identity, rows, batches, resume }) => {
      const outcome = await sendPlanned(
        ctx,
        { ...flags, ...(resume === undefined ? {} : { resume }), batchSize: plan.header.batch_size },
        {
          argv: plan.file === file ? invocation.argv : againArgv(invocation.argv, file, plan.file),
          resource,
          mode: plan.header.mode,
          scope: { ...plan.header.scope, account },
          rows,
          batches,
          plan: identity,
        },
      );
      // (it throws unless the run ended well)
      return { outcome, whole: true };
    },
    label: plan.file,
    warn: (line) => ctx.info(line),
  });
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
