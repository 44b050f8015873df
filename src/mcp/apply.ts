// ads_apply: a plan named by id and SHA-256, applied as `platform ads apply FILE` applies one
// (commands/ads/apply.ts), on the same bulk layer: its seals and hash checked, then the ledger
// (applied once), the apply's lock, the journal of an earlier apply to go on with, the plan's
// requests under its idempotency keys, and the conflict check of each row; so a retry after a
// dropped connection applies no row twice.
import fs from 'node:fs';
import path from 'node:path';
import type { AdsResource } from '../api/ads-resources.js';
import { errorLine, UsageError } from '../base/errors.js';
import { runBulkPlan, type BulkOutcome } from '../bulk/pipeline.js';
import { endError, runEnd } from '../bulk/outcome.js';
import { planDestination, plannedRows, readPlanHeader, verifyPlan, type VerifiedPlan } from '../bulk/plan/plan.js';
import type { ResultRow } from '../bulk/results.js';
import { appliedBefore, noteApplied, readLedger } from '../bulk/runs/plan-ledger.js';
import { earlierApply, lockPlanApply } from '../bulk/runs/plan-runs.js';
import { readHistory } from '../bulk/runs/runs.js';
import type { Context } from '../context.js';
import { bulkDeps, planPath, resourceNamed } from './plans.js';

export interface Applied {
  plan_id: string;
  run: string | null;
  /** Applied before (the ledger): nothing was sent now; the results are that run's. */
  applied_before: boolean;
  results: ResultRow[];
  counts: Record<string, number>;
  /** How the run ended when not every row was applied, in the CLI's words. */
  error: string | null;
}

/** The plan of this id, read whole and found as it was made, and its hash checked: else nothing is sent. */
export async function checkedPlan(ctx: Context, id: string, hash: string): Promise<{ plan: VerifiedPlan; resource: AdsResource }> {
  const file = planPath(ctx, id);
  if (!fs.existsSync(file)) throw new UsageError(`plan_id: no plan ${id} (make one with ads_plan)`);
  const resource = resourceNamed((await readPlanHeader(file)).resource);
  const plan = await verifyPlan(file, resource.idField);
  if (plan.sha256 !== hash.replace(/^sha256:/, '')) throw new UsageError(`plan_hash: does not match plan ${id} as stored; nothing was sent`);
  return { plan, resource };
}

/** Applies a checked plan exactly as `platform ads apply FILE` does (apply.ts). */
export async function applyPlan(ctx: Context, checked: { plan: VerifiedPlan; resource: AdsResource }): Promise<Applied> {
  const { plan, resource } = checked;
  const { deps, origin, profile } = await bulkDeps(ctx);
  const { account } = planDestination(plan, plan.file, { origin });
  const dir = ctx.paths.runs;
  const identity = plan.header.id;
  const lock = lockPlanApply(dir, { file: plan.file, plan: identity, shard: undefined }, new Date(ctx.clock.now()));
  try {
    const applied = appliedBefore(readLedger(ctx.paths.plans), { sha256: plan.sha256, plan: identity, origin, account });
    if (applied) {
      const history = applied.journal && fs.existsSync(applied.journal) ? (await readHistory(applied.journal)).rows : [];
      const results = history.map(
        (row) => ({ line: row.line, id: row.id, result: row.result, error_code: row.error_code, error_message: row.error_message }) as ResultRow,
      );
      return { plan_id: identity, run: applied.run || null, applied_before: true, results, counts: countsOf(results), error: null };
    }
    const earlier = earlierApply(dir, { file: plan.file, plan: identity, shard: undefined, profile });
    const results: ResultRow[] = [];
    const outcome: BulkOutcome = await runBulkPlan(
      {
        resource,
        mode: plan.header.mode,
        scope: { ...plan.header.scope, account },
        source: { planned: plannedRows(plan, resource.idField), force: false, batches: plan.batches },
        batchSize: plan.header.batch_size,
        ...(earlier ? { resume: earlier.path } : {}),
        target: { origin, profile },
        about: { command: `mcp ads_apply ${identity}`, argv: [], profile, plan: identity },
      },
      deps,
      {
        results: async (rows) => {
          for await (const row of rows)
            results.push({ line: row.line, id: row.id, result: row.result, error_code: row.error_code, error_message: row.error_message });
        },
        dryRun: () => Promise.resolve(),
      },
    );
    const journal = outcome.journal ?? earlier?.path;
    const error = endError(runEnd(outcome), { resume: () => `ads_apply with plan_id ${identity} again`, inFlags: (m) => m });
    if (!error) {
      const apply = {
        sha256: plan.sha256,
        plan: identity,
        file: plan.file,
        applied: new Date(ctx.clock.now()).toISOString(),
        journal,
        profile,
        origin,
        account,
      };
      noteApplied(ctx.paths.plans, apply, `plan ${identity}`, (line) => ctx.info(line));
    }
    const run = journal ? path.basename(journal).replace(/\.ndjson$/, '') : null;
    return { plan_id: identity, run, applied_before: false, results, counts: countsOf(results), error: error ? errorLine(error) : null };
  } finally {
    lock?.release();
  }
}

function countsOf(rows: ReadonlyArray<{ result: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.result] = (counts[row.result] ?? 0) + 1;
  return counts;
}
