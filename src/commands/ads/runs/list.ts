import os from 'node:os';
import type { Context } from '../../../context.js';
import { runsDirectory } from '../../../bulk/journal.js';
import { listRuns } from '../../../bulk/runs.js';
import { writeRows } from '../../../output/rows.js';
import { runRows, runView } from '../../../output/views/runs.js';

export async function run(ctx: Context): Promise<void> {
  await writeRows(ctx, runView, runRows(listRuns(runsDirectory(ctx.env, os.homedir()))));
}
