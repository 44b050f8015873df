import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { listRuns, shortRunName } from '../../../bulk/runs/runs.js';
import { writeRows } from '../../../output/rows.js';
import { runRows, runView } from '../../../output/views/runs.js';
import type { RunsListFlags } from '../spec.js';

export async function run(ctx: Context, flags: RunsListFlags): Promise<void> {
  if (flags.limit !== undefined && flags.limit < 1) throw new UsageError('--limit must be 1 or more');
  const runs = listRuns(ctx.paths.runs);
  // The newest, in the list's order: the latest run stays the last line, next to the prompt.
  await writeRows(ctx, runView, runRows(flags.limit === undefined ? runs : runs.slice(-flags.limit)));
  // Of every run, shown or not (one undone since needs nothing more).
  const undone = new Set(runs.map((r) => r.record.undoes));
  const interrupted = runs.filter((r) => r.status === 'interrupted' && !undone.has(r.run));
  // (chatter: stderr, so a script reading the list is not disturbed)
  if (interrupted.length === 1)
    ctx.info(`Run ${shortRunName(interrupted[0]!.run)} was interrupted: \`platform ads runs show ${interrupted[0]!.run}\` says how to finish or undo it`);
  else if (interrupted.length > 1) ctx.info(`${interrupted.length} runs were interrupted: \`platform ads runs show RUN\` says how to finish or undo each`);
}
