// What a row is, whatever its line: a resumed run matches rows to the journal (or an earlier
// run's results) by these, so an input that was reordered, filtered or grown between runs
// never makes one row pass for another. A patch row is its resource's id; a create row has
// no id yet, so it is its content. Either way the n-th row with the same identity in the
// input gets "#n" (n > 1), and the content's hash tells an edited row from the one sent.
import { hash } from 'node:crypto';
import type { SpooledRow } from './spool.js';
import { IdMarks } from './id-marks.js';

export interface RowIdentity {
  /** The row's key: the id of the resource it patches, or the hash of what it creates; "#n" for the n-th with it. */
  key: string;
  /** A hash of what the row asks for (its item, campaign and partial changes), to tell an edited row. */
  hash: string;
}

export type IdentifiedRow = (Exclude<SpooledRow, { problem: unknown }> & RowIdentity) | Extract<SpooledRow, { problem: unknown }>;

/** What a row is known by before its occurrence is counted: a patch row's id, a create row's content hash. */
export function identityBase(row: Exclude<SpooledRow, { problem: unknown }>, mode: 'create' | 'patch', idField: string): string {
  return mode === 'patch' ? String(row.item[idField]) : contentHash(row);
}

/**
 * Counts the rows known by the same base (identityBase) as the validation pass spools them:
 * the n-th one is spooled with `n`, so the send pass needs no map of every row's base.
 */
export function occurrenceCounter(): (base: string) => number {
  // Counted by 64-bit hash (id-marks.ts), not in a Map of every base: a fifth of the time,
  // and no string held per row. Two bases with one hash (odds about 1 in 10^8 in a
  // million-row input) would make the later one "#2" of its own id: still a key of its own.
  const seen = new IdMarks();
  return (base) => seen.count(base);
}

/** The rows, each valid one with its identity; `idField` names the id a patch row is known by. */
export async function* identifyRows(chunks: AsyncIterable<SpooledRow[]>, mode: 'create' | 'patch', idField: string): AsyncGenerator<IdentifiedRow[]> {
  for await (const chunk of chunks) {
    // The rows of a chunk are parsed for this pass alone: each gets its identity in place (a copy per row costs more).
    for (const row of chunk as IdentifiedRow[]) {
      if ('problem' in row) continue;
      row.hash = contentHash(row);
      row.key = occurrenceKey(mode === 'patch' ? String(row.item[idField]) : row.hash, row.n ?? 1);
    }
    yield chunk as IdentifiedRow[];
  }
}

/** The key of the n-th row known by `base`. */
export function occurrenceKey(base: string, n: number): string {
  return n === 1 ? base : `${base}#${n}`;
}

function contentHash(row: Exclude<SpooledRow, { problem: unknown }>): string {
  // Items come out of one mapping (CSV cells, JSON items and flags alike), their keys always
  // in the same order, so plain JSON is a stable form of the content.
  const content = JSON.stringify([row.item, row.campaignId ?? null, row.partial ?? null]); // (not `n`: which one it is)
  // 96 bits: only rows of one input and one journal are ever compared.
  return hash('sha1', content, 'base64url').slice(0, 16);
}
