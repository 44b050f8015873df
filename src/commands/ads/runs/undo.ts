import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { holderText, takeLockIfWritable, type Holder, type JournalLock } from '../../../bulk/journal/journal-lock.js';
import { listRuns, readHistory, shortRunName, undoOf, type RunSummary } from '../../../bulk/runs/runs.js';
import { undoRows, unknownCreates } from '../../../bulk/runs/undo.js';
import type { Invocation } from '../../spec.js';
import { resumeAdvice, runNamed, sendPlanned } from '../replay.js';
import { resourceNamed } from '../../../api/ads-resources.js';
import type { RunsUndoFlags } from '../spec.js';

export async function run(ctx: Context, flags: RunsUndoFlags, args: string[], invocation: Invocation): Promise<void> {
  const found = runNamed(ctx, args[0]!);
  // The run's own lock, held while it is undone: a resume of it started meanwhile is refused, as the undo is while it goes.
  const lock = lockRun(ctx, found);
  try {
    await undo(ctx, flags, found, invocation);
  } finally {
    lock?.release();
  }
}

/** The run's journal lock; none when it cannot be written (a journal kept on read-only storage). */
function lockRun(ctx: Context, found: RunSummary): JournalLock | undefined {
  return takeLockIfWritable(
    `${found.path}.lock`,
    new Date(ctx.clock.now()),
    (holder) =>
      holder?.undo ? undoing(ctx, found, holder) : new UsageError(`RUN: ${found.run} is still going (${holderText(holder)}); undo it once it has ended`),
    { undo: true },
  );
}

/** Another `runs undo` of the run holds its lock: named by its own run once it has one (its journal), else by its process. */
function undoing(ctx: Context, found: RunSummary, holder: Holder): UsageError {
  const other = listRuns(ctx.paths.runs).find(
    (r) => r.running && r.record.undoes === found.run && (r.record.undoesStarted === undefined || r.record.undoesStarted === found.record.started),
  );
  const by = other ? `run ${shortRunName(other.run)}` : 'another runs undo';
  return new UsageError(`RUN: ${found.run} is already being undone by ${by} (${holderText(holder)}); wait for that undo to end`);
}

async function undo(ctx: Context, flags: RunsUndoFlags, found: RunSummary, invocation: Invocation): Promise<void> {
  // Undone already, whole: a script's retry of the undo gets exit 0, not a conflict per row
  // (an undo that did not end well is retried like the first: what it restored is then a conflict, the rest is restored).
  const done = undoOf(listRuns(ctx.paths.runs), found.run, found.record.started);
  if (done?.status === 'done') return ctx.info(`Nothing to undo: run ${found.run} was undone by run ${shortRunName(done.run)}`);
  const { record, rows } = await readHistory(found.path);
  if (!record.scope) throw new UsageError(`RUN: ${found.run} was written by an earlier version of platform, which did not keep the values a run replaced`);
  const unknown = unknownCreates(rows).length;
  if (unknown) {
    // All or nothing: once undone, the run is not resumed (pipeline.ts), and these would stay unknown.
    throw new UsageError(
      `RUN: ${found.run} was stopped with ${unknown} ${unknown === 1 ? 'create' : 'creates'} sent and never answered, so what it made is not known: ` +
        `to undo it, first ${resumeAdvice(found)}, then undo it; nothing was sent`,
    );
  }
  const resource = resourceNamed(record.resource, found.run);
  const undo = undoRows(rows, resource, record.mode);
  // Not an error: a script undoing its last run gets exit 0 when that run changed nothing.
  if (undo.length === 0) return ctx.info(`Nothing to undo: run ${found.run} changed nothing`);
  await sendPlanned(
    ctx,
    { ...flags, skipInvalid: true },
    {
      argv: invocation.argv,
      resource,
      // An undo patches, whatever the run did (a create's resources are paused).
      mode: 'patch',
      scope: record.scope,
      rows: undo,
      undoes: found.run,
      undoesStarted: found.record.started,
    },
  );
}
