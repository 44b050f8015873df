// What a row is, whatever its line: a resumed run matches rows to the journal (or an earlier
// run's results) by these, so an input that was reordered, filtered or grown between runs
// never makes one row pass for another. A patch row is its resource's id; a create row has
// no id yet, so it is its content. Either way the n-th row with the same identity in the
// input gets "#n" (n > 1), and the content's hash tells an edited row from the one sent.
import { createHash } from 'node:crypto';
import type { SpooledRow } from './spool.js';

export interface RowIdentity {
  /** The row's key: the id of the resource it patches, or the hash of what it creates; "#n" for the n-th with it. */
  key: string;
  /** A hash of what the row asks for (its item, campaign and partial changes), to tell an edited row. */
  hash: string;
}

export type IdentifiedRow = (Exclude<SpooledRow, { problem: unknown }> & RowIdentity) | Extract<SpooledRow, { problem: unknown }>;

/** The rows, each valid one with its identity; `idField` names the id a patch row is known by. */
export async function* identifyRows(chunks: AsyncIterable<SpooledRow[]>, mode: 'create' | 'patch', idField: string): AsyncGenerator<IdentifiedRow[]> {
  const seen = new Map<string, number>();
  for await (const chunk of chunks) {
    yield chunk.map((row) => {
      if ('problem' in row) return row;
      const hash = contentHash(row);
      const base = mode === 'patch' ? String(row.item[idField]) : hash;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      return { ...row, key: occurrenceKey(base, n), hash };
    });
  }
}

/** The key of the n-th row known by `base`. */
export function occurrenceKey(base: string, n: number): string {
  return n === 1 ? base : `${base}#${n}`;
}

function contentHash(row: Exclude<SpooledRow, { problem: unknown }>): string {
  const content = canonicalJson([row.item, row.campaignId ?? null, row.partial ?? null]);
  // 96 bits: only rows of one input and one journal are ever compared.
  return createHash('sha256').update(content).digest('base64url').slice(0, 16);
}

/** JSON with object keys sorted, so that the same content hashes the same whatever the key order of its input. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
