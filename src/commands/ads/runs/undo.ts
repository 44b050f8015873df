import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { readHistory } from '../../../bulk/runs.js';
import { undoRows, unknownCreates } from '../../../bulk/undo.js';
import type { Invocation } from '../../spec.js';
import { resourceNamed, resumeAdvice, runNamed, sendPlanned } from '../replay.js';
import type { RunsUndoFlags } from '../spec.js';

export async function run(ctx: Context, flags: RunsUndoFlags, args: string[], invocation: Invocation): Promise<void> {
  const found = runNamed(ctx, args[0]!);
  if (found.running) throw new UsageError(`RUN: ${found.run} is still going (its journal is locked); undo it once it has ended`);
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
    },
  );
}
