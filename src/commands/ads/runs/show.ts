import type { Context } from '../../../context.js';
import { listRuns, readHistory, shortRunName, undoOf, type HistoryRow, type RunSummary } from '../../../bulk/runs/runs.js';
import { unknownCreates } from '../../../bulk/runs/undo.js';
import { writeRows } from '../../../output/rows.js';
import { historyRows, historyView } from '../../../output/views/runs.js';
import { resumeAdvice, runNamed } from '../replay.js';
import { resourceNamed } from '../../../api/ads-resources.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const found = runNamed(ctx, args[0]!);
  const { record, rows } = await readHistory(found.path);
  await writeRows(ctx, historyView, historyRows(rows, resourceNamed(record.resource, found.run).idField));
  if (found.status !== 'interrupted') return;
  const undo = undoOf(listRuns(ctx.paths.runs), found.run, found.record.started);
  ctx.info(undo ? `Run ${shortRunName(found.run)} was interrupted, and run ${shortRunName(undo.run)} undid it` : interruptedNote(found, rows));
}

/** What is left of an interrupted run, and the two ways on: finish it, or undo what it did. */
function interruptedNote(found: RunSummary, rows: readonly HistoryRow[]): string {
  const unanswered = rows.filter((row) => row.result === 'unanswered').length;
  const total = found.record.rows;
  // (a resume may have grown the input past the rows the run started with)
  const unsent = total !== undefined && total > rows.length ? `${total - rows.length} of its ${total} rows were not sent` : '';
  const inFlight = unanswered ? `${unanswered} were sent with no answer (they may have been applied)` : '';
  const left = [unsent, inFlight].filter(Boolean).join(', and ');
  const undo = `\`platform ads runs undo ${found.run}\``;
  // A create sent with no answer made what only a resume can learn (runs undo refuses until then).
  const undoAdvice = unknownCreates(rows).length ? `to undo it, finish it first, then run ${undo}` : `to undo what it did, run ${undo}`;
  return `Run ${shortRunName(found.run)} was interrupted${left ? `: ${left}` : ''}. To finish it, ${resumeAdvice(found)}; ${undoAdvice}`;
}
