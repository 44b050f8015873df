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
  await sendPlanned(
    ctx,
    { ...flags, skipInvalid: true },
    {
      argv: invocation.argv,
      resource,
      // An undo patches, whatever the run did (a create's resources are paused).
      mode: 'patch',
      scope: record.scope,
      rows: undoRows(rows, resource, record.mode),
      undoes: found.run,
    },
  );
}
