import os from 'node:os';
import type { Context } from '../../../context.js';
import { runsDirectory } from '../../../bulk/journal.js';
import { listRuns, shortRunName } from '../../../bulk/runs.js';
import { writeRows } from '../../../output/rows.js';
import { runRows, runView } from '../../../output/views/runs.js';

export async function run(ctx: Context): Promise<void> {
  const runs = listRuns(runsDirectory(ctx.env, os.homedir()));
  await writeRows(ctx, runView, runRows(runs));
  // (one undone since needs nothing more)
  const undone = new Set(runs.map((r) => r.record.undoes));
  const interrupted = runs.filter((r) => r.status === 'interrupted' && !undone.has(r.run));
  // (chatter: stderr, so a script reading the list is not disturbed)
  if (interrupted.length === 1)
    ctx.info(`Run ${shortRunName(interrupted[0]!.run)} was interrupted: \`platform ads runs show ${interrupted[0]!.run}\` says how to finish or undo it`);
  else if (interrupted.length > 1) ctx.info(`${interrupted.length} runs were interrupted: \`platform ads runs show RUN\` says how to finish or undo each`);
}
