// --dry-run: validate, look up the current values in chunks, and say per row what would
// change, sending no write. Streams: one chunk of rows in memory at a time.
import { describeChanges } from './diff.js';
import { describeProblem } from './row-mapping.js';
import type { MergedRow } from './merge.js';

export interface DryRunRow {
  line: number;
  id: string;
  result: 'would_create' | 'would_update' | 'unchanged' | 'not_found' | 'invalid';
  changes: string;
}

/** Current resources by id, for the ids of one campaign (or the account). */
export type Lookup = (ids: string[], campaignId: string | undefined) => Promise<Map<string, Record<string, unknown>>>;

const CHUNK = 200;

export async function* dryRun(rows: AsyncIterable<MergedRow>, idField: string, lookup: Lookup | undefined): AsyncGenerator<DryRunRow> {
  let chunk: MergedRow[] = [];
  for await (const row of rows) {
    chunk.push(row);
    if (chunk.length >= CHUNK) {
      yield* judge(chunk, idField, lookup);
      chunk = [];
    }
  }
  yield* judge(chunk, idField, lookup);
}

async function* judge(chunk: MergedRow[], idField: string, lookup: Lookup | undefined): AsyncGenerator<DryRunRow> {
  const current = new Map<string, Record<string, unknown>>();
  if (lookup) {
    const byCampaign = new Map<string | undefined, string[]>();
    for (const row of chunk) {
      if ('problem' in row || 'unchanged' in row) continue;
      const ids = byCampaign.get(row.campaignId) ?? [];
      ids.push(String(row.item[idField]));
      byCampaign.set(row.campaignId, ids);
    }
    for (const [campaignId, ids] of byCampaign) {
      for (const [id, resource] of await lookup(ids, campaignId)) current.set(`${campaignId ?? ''}/${id}`, resource);
    }
  }
  for (const row of chunk) {
    if ('problem' in row) {
      yield { line: row.line, id: '', result: 'invalid', changes: describeProblem(row.problem) };
      continue;
    }
    if ('unchanged' in row) {
      yield { line: row.line, id: row.id, result: 'unchanged', changes: '' };
      continue;
    }
    if (!lookup) {
      yield { line: row.line, id: '', result: 'would_create', changes: describeChanges(row.item, undefined, idField).join('; ') };
      continue;
    }
    const id = String(row.item[idField]);
    const before = current.get(`${row.campaignId ?? ''}/${id}`);
    if (!before) {
      yield { line: row.line, id, result: 'not_found', changes: '' };
      continue;
    }
    const changes = describeChanges(row.item, before, idField);
    yield { line: row.line, id, result: changes.length ? 'would_update' : 'unchanged', changes: changes.join('; ') };
  }
}
