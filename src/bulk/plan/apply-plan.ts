// Applying a stored plan, below the commands: what `platform ads apply FILE` and the MCP
// server's ads_apply share, in its order. A plan is applied once, one apply of it (and shard)
// at a time: its lock is taken, the ledger of applied plans asked, an earlier apply of it (a
// run stopped or killed) gone on with, its rows sent in its requests under its keys (by the
// caller: the command's write run with its output, the tool's collected results), and an
// apply that ended well noted in the ledger. Where the plan goes (planDestination), --again
// and what is said along the way stay with the caller.
import { resourceNamed, type AdsResource } from '../../api/ads-resources.js';
import type { BulkOutcome, PlannedRow } from '../pipeline.js';
import { appliedBefore, noteApplied, readLedger, type LedgerEntry } from '../runs/plan-ledger.js';
import { earlierApply, lockPlanApply } from '../runs/plan-runs.js';
import type { RunSummary } from '../runs/runs.js';
import { shardName, type Shard } from '../shard.js';
import { planIdentity, planKeysAt, plannedRows, readPlanHeader, verifyPlan, type VerifiedPlan } from './plan.js';

/** A plan file read whole and found as it was made, and the resource its header names (an unknown one is an error naming `where`). */
export async function readVerifiedPlan(file: string, where: string): Promise<{ plan: VerifiedPlan; resource: AdsResource }> {
  const resource = resourceNamed((await readPlanHeader(file)).resource, where);
  return { plan: await verifyPlan(file, resource.idField), resource };
}

/** Where the plan is applied, and the folders of its runs and of the ledger. */
export interface PlanTarget {
  runsDir: string;
  plansDir: string;
  origin: string;
  account: string;
  profile: string;
  /** Elsewhere than the plan's target (--retarget): the apply's identity and keys are made from this one. */
  retarget?: { origin: string; account: string } | undefined;
  shard?: Shard | undefined;
  now: () => number;
}

/** What the caller's send gets: the plan's rows in its requests, under the keys they are sent with. */
export interface PlannedSend {
  /** The plan's identity here (planIdentity): its runs and its lock. */
  identity: string;
  rows: AsyncIterable<PlannedRow>;
  /** Rows per request, by key as sent. */
  batches: ReadonlyMap<string, number>;
  /** The journal to go on with: the one asked for (--resume), or an earlier apply's. */
  resume: string | undefined;
}

export interface PlanApplyOptions<B> {
  /** Go on with this journal (--resume): no earlier apply is looked for, and a plan applied before sends what is left. */
  resume?: string | undefined;
  /** A new plan (--again): no ledger entry or earlier apply can be its. */
  again?: boolean | undefined;
  /** The journal the apply names (--journal): an earlier apply kept in another is refused. */
  journal?: string | undefined;
  /** Nothing is sent (--dry-run): no lock, and no ledger entry. */
  dryRun?: boolean | undefined;
  /** The plan was applied whole before (and no --resume): the answer instead of sending, or a throw. */
  appliedBefore: (entry: LedgerEntry) => B | Promise<B>;
  /** Told, before anything is sent, of the earlier apply this one goes on with (or that there is none). */
  earlier?: (earlier: RunSummary | undefined, identity: string) => void;
  /** Sends the rows; `whole` when the run ended well (every row applied), which the ledger keeps. */
  send: (planned: PlannedSend) => Promise<{ outcome: BulkOutcome; whole: boolean }>;
  /** The plan in a warning: its file, or `plan ID`. */
  label: string;
  warn: (line: string) => void;
}

export type PlanApplied<B> = { before: B } | { outcome: BulkOutcome; journal: string | undefined; identity: string };

/** Applies a verified plan at `target` (see the top of this file). */
export async function applyStoredPlan<B>(plan: VerifiedPlan, resource: AdsResource, target: PlanTarget, options: PlanApplyOptions<B>): Promise<PlanApplied<B>> {
  const { shard, origin, account, profile } = target;
  const identity = planIdentity(plan.header, target.retarget);
  const keyOf = planKeysAt(target.retarget);
  const lock = options.dryRun ? undefined : lockPlanApply(target.runsDir, { file: plan.file, plan: identity, shard }, new Date(target.now()));
  try {
    const query = { sha256: plan.sha256, plan: plan.header.id, origin, account, ...(shard ? { shard: shardName(shard) } : {}) };
    const applied = options.again ? undefined : appliedBefore(readLedger(target.plansDir), query);
    if (applied && options.resume === undefined) return { before: await options.appliedBefore(applied) };
    const earlier =
      options.resume === undefined && !options.again
        ? earlierApply(target.runsDir, { file: plan.file, plan: identity, shard, profile, journal: options.journal })
        : undefined;
    options.earlier?.(earlier, identity);
    const { outcome, whole } = await options.send({
      identity,
      rows: plannedRows(plan, resource.idField, keyOf),
      batches: new Map([...plan.batches].map(([key, rows]) => [keyOf(key), rows])),
      resume: options.resume ?? earlier?.path,
    });
    const journal = outcome.journal ?? earlier?.path;
    if (whole && !options.dryRun && !applied) {
      const entry = {
        sha256: plan.sha256,
        plan: plan.header.id,
        file: plan.file,
        applied: new Date(target.now()).toISOString(),
        journal,
        profile,
        origin,
        account,
      };
      noteApplied(target.plansDir, { ...entry, ...(shard ? { shard: shardName(shard) } : {}) }, options.label, options.warn);
    }
    return { outcome, journal, identity };
  } finally {
    lock?.release();
  }
}
