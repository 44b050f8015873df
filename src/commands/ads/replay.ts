// What apply and runs undo share: the resource a plan or run names, and the write run that
// sends its rows (write.ts), checked against the current state (bulk/plan/plan-check.ts).
import type { AdsResource, AdsScope } from '../../api/ads-resources.js';
import type { BulkOutcome, PlannedRow } from '../../bulk/pipeline.js';
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { findRun, type RunSummary } from '../../bulk/runs/runs.js';
import { resumeCommand } from '../quote.js';
import type { RunsUndoFlags } from './spec.js';
import { runWrite } from './write.js';

/** How to go on with a stopped run: its own command with --resume. */
export function resumeAdvice(found: RunSummary): string {
  return found.record.argv ? `run ${resumeCommand(found.record.argv, found.path)}` : `run its command with --resume ${found.path}`;
}

/** The run RUN names in the runs directory (runs show, runs undo). */
export function runNamed(ctx: Context, name: string): RunSummary {
  const dir = ctx.paths.runs;
  const found = findRun(dir, name);
  if (!found) throw new UsageError(`RUN: no run ${name} in ${dir} (see platform ads runs list)`);
  return found;
}

export interface Replay {
  argv: readonly string[];
  resource: AdsResource;
  mode: 'create' | 'patch';
  scope: AdsScope;
  rows: AsyncIterable<PlannedRow> | Iterable<PlannedRow>;
  undoes?: string;
  undoesStarted?: string;
  /** The plan applied (plan.ts, planIdentity). */
  plan?: string;
  /** The plan's requests: rows per key (plan.ts). */
  batches?: ReadonlyMap<string, number>;
}

/** Sends the rows; returns how the run went when it ended well (exit 0), else throws its error. */
export async function sendPlanned(ctx: Context, flags: RunsUndoFlags, replay: Replay): Promise<BulkOutcome> {
  if (flags.plan !== undefined) throw new UsageError('--plan writes the plan of a create or patch --dry-run; this command sends one');
  return await runWrite(ctx, {
    argv: replay.argv,
    resource: replay.resource,
    mode: replay.mode,
    scope: replay.scope,
    flags,
    fieldFlags: [],
    fromFlags: () => ({}),
    source: { planned: replay.rows, force: Boolean(flags.force), ...(replay.batches ? { batches: replay.batches } : {}) },
    ...(replay.undoes ? { undoes: replay.undoes } : {}),
    ...(replay.undoesStarted ? { undoesStarted: replay.undoesStarted } : {}),
    ...(replay.plan ? { plan: replay.plan } : {}),
  });
}
