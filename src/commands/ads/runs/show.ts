import type { Context } from '../../../context.js';
import { readHistory } from '../../../bulk/runs.js';
import { writeRows } from '../../../output/rows.js';
import { historyRows, historyView } from '../../../output/views/runs.js';
import { resourceNamed, runNamed } from '../replay.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const found = runNamed(ctx, args[0]!);
  const { record, rows } = await readHistory(found.path);
  await writeRows(ctx, historyView, historyRows(rows, resourceNamed(record.resource, found.run).idField));
}
