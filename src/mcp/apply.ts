// ads_apply: a plan named by id and SHA-256, applied as `platform ads apply FILE` applies one,
// by the same function (bulk/plan/apply-plan.ts): its seals and hash checked, then the apply's
// lock, the ledger (applied once), the journal of an earlier apply to go on with, the plan's
// requests under its idempotency keys, and the conflict check of each row; so a retry after a
// dropped connection applies no row twice.
import fs from 'node:fs';
import path from 'node:path';
import type { AdsResource } from '../api/ads-resources.js';
import { errorLine, UsageError } from '../base/errors.js';
import { runBulkPlan } from '../bulk/pipeline.js';
import { endError, runEnd } from '../bulk/outcome.js';
import { applyStoredPlan, readVerifiedPlan } from '../bulk/plan/apply-plan.js';
import { planDestination, type VerifiedPlan } from '../bulk/plan/plan.js';
import type { ResultRow } from '../bulk/results.js';
import { readHistory } from '../bulk/runs/runs.js';
import type { Context } from '../context.js';
import { bulkDeps, planPath } from './plans.js';

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
  const checked = await readVerifiedPlan(file, 'resource');
  if (checked.plan.sha256 !== hash.replace(/^sha256:/, '')) throw new UsageError(`plan_hash: does not match plan ${id} as stored; nothing was sent`);
  return checked;
}

/** Applies a checked plan exactly as `platform ads apply FILE` does (commands/ads/apply.ts). */
export async function applyPlan(ctx: Context, checked: { plan: VerifiedPlan; resource: AdsResource }): Promise<Applied> {
  const { plan, resource } = checked;
  const { deps, origin, profile } = await bulkDeps(ctx);
  const { account } = planDestination(plan, plan.file, { origin });
  const id = plan.header.id;
  const results: ResultRow[] = [];
  let error: string | null = null;
  const target = { runsDir: ctx.paths.runs, plansDir: ctx.paths.plans, origin, account, profile, now: () => ctx.clock.now() };
  const applied = await applyStoredPlan(plan, resource, target, {
    // Applied before: nothing is sent; the answer is that run's results.
    appliedBefore: async (entry): Promise<Applied> => {
      const history = entry.journal && fs.existsSync(entry.journal) ? (await readHistory(entry.journal)).rows : [];
      const rows = history.map((row) => resultOf(row as ResultRow));
      return { plan_id: id, run: entry.run || null, applied_before: true, results: rows, counts: countsOf(rows), error: null };
    },
    send: async ({ identity, rows, batches, resume }) => {
      const outcome = await runBulkPlan(
        {
          resource,
          mode: plan.header.mode,
          scope: { ...plan.header.scope, account },
          source: { planned: rows, force: false, batches },
          batchSize: plan.header.batch_size,
          ...(resume ? { resume } : {}),
          target: { origin, profile },
          about: { command: `mcp ads_apply ${identity}`, argv: [], profile, plan: identity },
        },
        deps,
        {
          results: async (each) => {
            for await (const row of each) results.push(resultOf(row));
          },
          dryRun: () => Promise.resolve(),
        },
      );
      const ended = endError(runEnd(outcome), { resume: () => `ads_apply with plan_id ${id} again`, inFlags: (m) => m });
      error = ended ? errorLine(ended) : null;
      return { outcome, whole: !ended };
    },
    label: `plan ${id}`,
    warn: (line) => ctx.info(line),
  });
  if ('before' in applied) return applied.before;
  const run = applied.journal ? path.basename(applied.journal).replace(/\.ndjson$/, '') : null;
  return { plan_id: id, run, applied_before: false, results, counts: countsOf(results), error };
}

/** A row's result as the tool gives it. */
function resultOf(row: ResultRow): ResultRow {
  return { line: row.line, id: row.id, result: row.result, error_code: row.error_code, error_message: row.error_message };
}

function countsOf(rows: ReadonlyArray<{ result: string }>): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.result] = (counts[row.result] ?? 0) + 1;
  return counts;
}
