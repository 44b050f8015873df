// Before a resumed run sends anything: its input against the journal, row by row by identity
// (row-identity.ts), whatever the order. A row the earlier run applied must come back as it
// was (an edited one is refused: resuming would apply a second, different change); a batch
// that was in flight is resent with its key only if its rows are all here as they were (the
// key then replays, or applies, exactly that request). Otherwise a patch's batch is given up:
// its rows go like any other, and the current state says which of them are already applied
// (unchanged, not sent). A create's cannot be: without all its rows it cannot be replayed,
// and a row it may have created would be created twice.
import { UsageError } from '../../base/errors.js';
import type { JournalResult, JournalState, SentRecord } from './journal.js';
import type { IdentifiedRow } from '../row-identity.js';

/** An in-flight batch to resend: its key, and the keys of its rows in the order of its items. */
export interface Resend {
  key: string;
  campaignId?: string;
  rows: string[];
}

export interface ResumePlan {
  resend: Resend[];
  /** Keys of in-flight batches given up (a patch's): journaled as such before anything is sent. */
  abandoned: string[];
}

/** An applied row: its content decides whether the input's row is the same one. */
export function isApplied(result: JournalResult | undefined): boolean {
  return result?.result === 'ok';
}

export async function checkResume(
  rows: AsyncIterable<IdentifiedRow[]>,
  state: Pick<JournalState, 'done' | 'inFlight'>,
  mode: 'create' | 'patch',
  idField: string,
  journal: string,
): Promise<ResumePlan> {
  const wanted = new Set(state.inFlight.flatMap((batch) => batch.rows));
  /** The content of each in-flight row found in the input. */
  const found = new Map<string, string>();
  for await (const chunk of rows)
    for (const row of chunk) {
      if ('problem' in row) continue;
      const recorded = state.done.get(row.key);
      if (isApplied(recorded) && recorded!.hash !== row.hash) {
        throw new UsageError(
          `--resume: line ${row.line} (${idField} ${String(row.item[idField])}) differs from the row the earlier run applied (journal ${journal}): ` +
            'restore it or leave it out, or run without --resume to apply it as a new change',
        );
      }
      if (wanted.has(row.key)) found.set(row.key, row.hash);
    }
  const plan: ResumePlan = { resend: [], abandoned: [] };
  for (const batch of state.inFlight) {
    const pending = batch.rows.map((key, i) => ({ key, i })).filter(({ key }) => !state.done.has(key));
    const missing = pending.find(({ key, i }) => found.get(key) !== batch.hashes[i]);
    if (!missing) plan.resend.push({ key: batch.key, ...(batch.campaignId ? { campaignId: batch.campaignId } : {}), rows: pending.map(({ key }) => key) });
    else if (mode === 'patch') plan.abandoned.push(batch.key);
    else throw missingCreate(batch, missing.i, journal);
  }
  return plan;
}

function missingCreate(batch: SentRecord, at: number, journal: string): UsageError {
  return new UsageError(
    `--resume: line ${batch.lines[at]} of the earlier input is not in this input as it was; it was being created when that run stopped (journal ${journal}), ` +
      'and its batch can be resent only whole and unchanged, or rows it created would be created twice: resume with that input',
  );
}
