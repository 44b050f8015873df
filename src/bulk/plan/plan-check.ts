// Applying a plan (or undoing a run): each row is sent only if its resource is still as the
// plan saw it (every leaf of every field the row sets), or, for an undo, still as the run
// wrote it. A row whose resource changed since is not sent: `conflict`, with both values
// (--force sends it anyway). A row whose resource already has what it would write is
// `unchanged`. One read per part of rows, as a patch's merge does (merge.ts).
import type { CurrentLookup } from '../changes/current.js';
import { isUnchanged, showDifferences } from '../changes/diff.js';
import { judgeWithCurrent, readCurrent, type MergedRow } from '../changes/merge.js';
import { touchedValues, type Expectation } from '../changes/row-change.js';
import type { IdentifiedRow } from '../row-identity.js';

type Json = Record<string, unknown>;

export interface CheckOptions {
  idField: string;
  lookup: CurrentLookup;
  signal?: AbortSignal;
  /** Rows of a batch resent with its key: sent as they were, never judged (merge.ts says why). */
  resend: (key: string) => boolean;
  /** Send conflicting rows anyway. */
  force: boolean;
  reportUnread: boolean;
}

export function checkPlanned(chunks: AsyncIterable<IdentifiedRow[]>, options: CheckOptions): AsyncGenerator<MergedRow[]> {
  return judgeWithCurrent(chunks, (part) => checkPart(part, options), options.signal, options.reportUnread);
}

async function checkPart(part: IdentifiedRow[], { idField, lookup, resend, force }: CheckOptions): Promise<MergedRow[]> {
  // Only rows with an expectation are read: a plan's creates have nothing to compare.
  const current = await readCurrent(
    part.filter((row) => !('problem' in row) && row.expect),
    idField,
    lookup,
  );
  return part.map((row): MergedRow => {
    if ('problem' in row || !row.expect) return row;
    const id = String(row.item[idField]);
    const now = current.get(`${row.campaignId ?? ''}/${id}`);
    const batch = row.batch ? { batch: row.batch } : {};
    const sent = { line: row.line, item: row.item, campaignId: row.campaignId, key: row.key, hash: row.hash, ...batch };
    // Not found: sent, so that the API says so for this row (as a patch does).
    if (!now) return { ...sent, current: null };
    if (resend(row.key)) return { ...sent, current: now };
    if (isUnchanged(row.item, now, idField)) return { line: row.line, unchanged: true, id, key: row.key, hash: row.hash, ...batch };
    const changed = changedSince(row.expect, row.item, now, idField);
    if (changed && !force) return { line: row.line, conflict: changed, id, key: row.key, hash: row.hash, ...batch };
    return { ...sent, current: now };
  });
}

/**
 * How the resource differs from what was expected (`expected -> now`, in a person's words:
 * `budget: 455.00 USD -> 55.55 USD`), or undefined when it does not.
 */
function changedSince(expect: Expectation, item: Json, now: Json, idField: string): string | undefined {
  if ('current' in expect) {
    const found = showDifferences(expect.current, touchedValues(item, now, idField));
    return found.length ? `changed since the plan (plan -> now): ${found.join('; ')}` : undefined;
  }
  if (isUnchanged({ [idField]: item[idField], ...expect.written }, now, idField)) return undefined;
  const found = showDifferences(touchedValues(expect.written, expect.written, idField), touchedValues(expect.written, now, idField));
  return `changed since the run (run wrote -> now): ${found.join('; ')}`;
}
