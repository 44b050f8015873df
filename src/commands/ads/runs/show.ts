import type { Context } from '../../../context.js';
import { readHistory, shortRunName, type HistoryRow, type RunSummary } from '../../../bulk/runs.js';
import { writeRows } from '../../../output/rows.js';
import { historyRows, historyView } from '../../../output/views/runs.js';
import { resourceNamed, runNamed } from '../replay.js';
import { resumeCommand } from '../../quote.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const found = runNamed(ctx, args[0]!);
  const { record, rows } = await readHistory(found.path);
  await writeRows(ctx, historyView, historyRows(rows, resourceNamed(record.resource, found.run).idField));
  if (found.status === 'interrupted') ctx.info(interruptedNote(found, rows));
}

/** What is left of an interrupted run, and the two ways on: finish it, or undo what it did. */
function interruptedNote(found: RunSummary, rows: readonly HistoryRow[]): string {
  const unanswered = rows.filter((row) => row.result === 'unanswered').length;
  const total = found.record.rows;
  // (a resume may have grown the input past the rows the run started with)
  const unsent = total !== undefined && total > rows.length ? `${total - rows.length} of its ${total} rows were not sent` : '';
  const inFlight = unanswered ? `${unanswered} were sent with no answer (they may have been applied)` : '';
  const left = [unsent, inFlight].filter(Boolean).join(', and ');
  const resume = found.record.argv ? `run ${resumeCommand(found.record.argv, found.path)}` : `run its command with --resume ${found.path}`;
  return `Run ${shortRunName(found.run)} was interrupted${left ? `: ${left}` : ''}. To finish it, ${resume}; to undo what it did, run \`platform ads runs undo ${found.run}\``;
}
