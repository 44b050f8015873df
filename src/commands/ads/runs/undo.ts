import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { readHistory } from '../../../bulk/runs.js';
import { undoRows } from '../../../bulk/undo.js';
import type { Invocation } from '../../spec.js';
import { resourceNamed, runNamed, sendPlanned } from '../replay.js';
import type { RunsUndoFlags } from '../spec.js';

export async function run(ctx: Context, flags: RunsUndoFlags, args: string[], invocation: Invocation): Promise<void> {
  const found = runNamed(ctx, args[0]!);
  if (found.running) throw new UsageError(`RUN: ${found.run} is still going (its journal is locked); undo it once it has ended`);
  const { record, rows } = await readHistory(found.path);
  if (!record.scope) throw new UsageError(`RUN: ${found.run} was written by an earlier version of platform, which did not keep the values a run replaced`);
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
