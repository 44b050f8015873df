import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { listRuns, shortRunName } from '../../../bulk/runs/runs.js';
import { writeRows } from '../../../output/rows.js';
import { runRows, runView } from '../../../output/views/runs.js';
import type { RunsListFlags } from '../spec.js';

export async function run(ctx: Context, flags: RunsListFlags): Promise<void> {
  if (flags.limit !== undefined && flags.limit < 1) throw new UsageError('--limit must be 1 or more');
  const every = listRuns(ctx.paths.runs);
  // The current profile's runs (those of another, or of an earlier version that kept none, with --all-profiles).
  const profile = flags.allProfiles ? undefined : (await ctx.profile()).name;
  const runs = profile === undefined ? every : every.filter((r) => r.record.profile === profile);
  // Newest first, as gh and git log list: the latest run on the first line, -L N the newest N.
  const newest = [...runs].reverse();
  await writeRows(ctx, runView, runRows(flags.limit === undefined ? newest : newest.slice(0, flags.limit)));
  // (chatter: stderr, so a script reading the list is not disturbed)
  const others = every.length - runs.length;
  if (others) ctx.info(`${others} ${others === 1 ? 'run' : 'runs'} of other profiles not listed: add --all-profiles`);
  // Of every run listed or not (one undone since needs nothing more).
  const undone = new Set(runs.map((r) => r.record.undoes));
  const interrupted = runs.filter((r) => r.status === 'interrupted' && !undone.has(r.run));
  if (interrupted.length === 1)
    ctx.info(`Run ${shortRunName(interrupted[0]!.run)} was interrupted: \`platform ads runs show ${interrupted[0]!.run}\` says how to finish or undo it`);
  else if (interrupted.length > 1) ctx.info(`${interrupted.length} runs were interrupted: \`platform ads runs show RUN\` says how to finish or undo each`);
}
