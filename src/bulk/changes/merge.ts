// Every patch row is checked against the resource as it is now, read in chunks (like
// --dry-run): a row that would change nothing is marked unchanged and not sent, and parts of
// nested objects (budget, schedule, targeting), which the API replaces whole, are merged
// into the current object so that the whole is sent with only the named part changed. The
// read and the write are not atomic: a change made in between by someone else is
// overwritten in those objects.
import type { z } from 'zod';
import { isUnchanged } from './diff.js';
import type { PartialChanges, RowProblem } from '../input/row-mapping.js';
import type { CurrentLookup } from './current.js';
import type { IdentifiedRow, RowIdentity } from '../row-identity.js';
import type { PlanBatch } from '../spool.js';
import { AuthError } from '../../base/errors.js';
import { AD_GROUP_FIELDS, type AdsField } from '../../schemas/ads-fields.js';

/**
 * The targeting settings (negation, operator) a row changes on their own: the ad group
 * table's `sibling` fields at `targeting.x`, each kept from the current targeting unless the
 * row gives it. Sorted, so the body's keys keep one order whatever the table's.
 */
const TARGETING_SETTINGS = (AD_GROUP_FIELDS as readonly AdsField[])
  .filter((f) => f.merge === 'sibling' && f.part === 'path' && f.paths[0]!.startsWith('targeting.'))
  .map((f) => f.paths[0]!.slice('targeting.'.length))
  .sort();

/**
 * A row after the merge: to send (with the resource as it is now, for a dry run; null when
 * not found), unchanged (not sent), changed since its plan was made (`conflict`: how; plan-check.ts), a problem found against the current state, or not sent
 * because the current state could not be read (`unread`: why, after the HTTP core's retries).
 */
export type MergedRow =
  | (IdentifiedRow & { current?: Json | null })
  | ({ line: number; unit?: 'item'; id: string; problem: RowProblem; batch?: PlanBatch } & RowIdentity)
  | ({ line: number; unchanged: true; id: string; batch?: PlanBatch } & RowIdentity)
  | ({ line: number; conflict: string; id: string; batch?: PlanBatch } & RowIdentity)
  | (Exclude<IdentifiedRow, { problem: unknown }> & { unread: Error });

const CHUNK = 200;

type Json = Record<string, unknown>;

/**
 * `resend`: rows (by key) of a batch that was in flight when a run was killed: sent again as
 * they were, never judged unchanged. `reportUnread`: a failed read marks the rows `unread` (a bulk
 * run goes on to give each a result) instead of ending the merge with the read's error.
 */
export function mergeWithCurrent(
  chunks: AsyncIterable<IdentifiedRow[]>,
  idField: string,
  schema: z.ZodType,
  lookup: CurrentLookup,
  signal?: AbortSignal,
  resend: (key: string) => boolean = () => false,
  reportUnread = true,
): AsyncGenerator<MergedRow[]> {
  return judgeWithCurrent(chunks, (part) => mergeChunk(part, idField, schema, lookup, resend), signal, reportUnread);
}

/**
 * The rows in parts of CHUNK, each judged against the current state by `judge` (which reads
 * it): the merge's pass, and a plan's check (plan-check.ts).
 */
export async function* judgeWithCurrent(
  chunks: AsyncIterable<IdentifiedRow[]>,
  judge: (part: IdentifiedRow[]) => Promise<MergedRow[]>,
  signal?: AbortSignal,
  reportUnread = true,
): AsyncGenerator<MergedRow[]> {
  // A read that failed for good: no more reads; this row and every later one is reported not
  // sent (each row still gets a result, and a --resume sends them), rather than ending the run.
  let unread: Error | undefined;
  for await (const rows of chunks) {
    for (let at = 0; at < rows.length; at += CHUNK) {
      const part = rows.slice(at, at + CHUNK);
      // Interrupted: no more reads; the runner reports these rows as not sent.
      if (signal?.aborted) {
        yield part;
        continue;
      }
      if (!unread) {
        try {
          yield await judge(part);
          continue;
        } catch (error) {
          // Refused credentials end the run as they do for a batch.
          if (!reportUnread || error instanceof AuthError || !(error instanceof Error)) throw error;
          unread = error;
        }
      }
      yield part.map((row) => ('problem' in row ? row : { ...row, unread: unread! }));
    }
  }
}

/** The current resources of a part's rows, by `campaign/id` (absent: not found). */
export async function readCurrent(chunk: IdentifiedRow[], idField: string, lookup: CurrentLookup): Promise<Map<string, Json>> {
  const byCampaign = new Map<string | undefined, string[]>();
  for (const row of chunk) {
    if ('problem' in row) continue;
    const ids = byCampaign.get(row.campaignId) ?? [];
    ids.push(String(row.item[idField]));
    byCampaign.set(row.campaignId, ids);
  }
  const current = new Map<string, Json>();
  for (const [campaignId, ids] of byCampaign) {
    for (const [id, resource] of await lookup(ids, campaignId)) current.set(`${campaignId ?? ''}/${id}`, resource);
  }
  return current;
}

async function mergeChunk(
  chunk: IdentifiedRow[],
  idField: string,
  schema: z.ZodType,
  lookup: CurrentLookup,
  resend: (key: string) => boolean,
): Promise<MergedRow[]> {
  const current = await readCurrent(chunk, idField, lookup);
  const out: MergedRow[] = [];
  for (const row of chunk) {
    if ('problem' in row) {
      out.push(row);
      continue;
    }
    const id = String(row.item[idField]);
    const before = current.get(`${row.campaignId ?? ''}/${id}`);
    // Not found: sent as named, without the nested parts, so the API says so for this row.
    if (!before) {
      out.push({ line: row.line, item: row.item, campaignId: row.campaignId, key: row.key, hash: row.hash, current: null });
      continue;
    }
    const merged = againstCurrent(row, before, idField, schema);
    if ('problem' in merged) {
      // With its id: the row names an existing resource, unlike most rows at fault in themselves.
      out.push({ line: row.line, ...(row.unit ? { unit: row.unit } : {}), id, key: row.key, hash: row.hash, problem: merged.problem });
      continue;
    }
    // A resent batch must be the same request as before (its key is replayed), applied or not.
    // A resource's later rows (n > 1) are sent after its earlier ones, which change it: what
    // was read is not what they will meet, so they are never judged unchanged by it.
    const later = 'n' in row && (row.n ?? 1) > 1;
    if (!resend(row.key) && !later && isUnchanged(merged.item, before, idField))
      out.push({ line: row.line, unchanged: true, id, key: row.key, hash: row.hash });
    else out.push({ line: row.line, item: merged.item, campaignId: row.campaignId, key: row.key, hash: row.hash, current: before });
  }
  return out;
}

/** The row's item with its partial changes made whole from the current resource, and checked against it. */
function againstCurrent(
  row: Exclude<IdentifiedRow, { problem: unknown }>,
  current: Json,
  idField: string,
  schema: z.ZodType,
): { item: Json } | { problem: RowProblem } {
  const withPartial = row.partial ? applyPartial(row.item, row.partial, current) : { item: row.item };
  if ('problem' in withPartial) return withPartial;
  const merged = sameCurrency(withPartial.item, current, idField);
  if ('problem' in merged || !row.partial) return merged;
  const checked = schema.safeParse(merged.item);
  if (checked.success) return merged;
  const issue = checked.error.issues[0]!;
  return { problem: { field: issue.path.join('.') || 'row', message: issue.message } };
}

/** The item with each partially changed object made whole from the current resource. */
export function applyPartial(item: Json, partial: PartialChanges, current: Json): { item: Json } | { problem: { field: string; message: string } } {
  const out: Json = { ...item };
  if (partial.ad_product !== undefined && partial.ad_product !== current.ad_product) {
    return { problem: { field: 'ad_product', message: `cannot be changed (it is ${String(current.ad_product)})` } };
  }
  // Everything else a row names is compared as it is sent, so a listed row is unchanged.
  // An amount given without a currency is in the resource's own (sameCurrency checks one given).
  const currency = currencyOf(current);
  const noCurrency = (column: string) => ({
    problem: { field: 'currency', message: `currency is required with ${column}: there is no amount yet to take it from` },
  });
  if (partial.budget) {
    const now = current.budget as { unit?: string; total?: { amount_e5: string; currency_code: string } } | undefined;
    const unit = partial.budget.unit ?? now?.unit;
    const given = partial.budget.total;
    if (given && !given.currency_code && !currency) return noCurrency('budget');
    const total = given
      ? { amount_e5: given.amount_e5, currency_code: given.currency_code ?? currency! }
      : now?.total
        ? { amount_e5: now.total.amount_e5, currency_code: now.total.currency_code }
        : undefined;
    if (!unit) return { problem: { field: 'budget_unit', message: 'has no budget to keep the unit of: give budget_unit too' } };
    if (!total) return { problem: { field: 'budget', message: 'has no budget to keep the amount of: give budget and currency too' } };
    out.budget = { unit, total };
  }
  if (partial.bid) {
    if (!currency) return noCurrency('bid');
    out.bidding = { manual: { bid_amount: { amount_e5: partial.bid.amount_e5, currency_code: currency } } };
  }
  if (partial.schedule) {
    const now = (current.schedule ?? {}) as { start_time?: string; end_time?: string };
    const start = partial.schedule.start_time ?? now.start_time;
    const end = partial.schedule.end_time ?? now.end_time;
    if (!start) return { problem: { field: 'start_time', message: 'is required: the ad group has no schedule to keep the start of' } };
    out.schedule = { start_time: start, ...(end ? { end_time: end } : {}) };
  }
  if (partial.targeting) {
    const now = (current.targeting ?? { negation: false, operator: 'AND', criteria: [] }) as Json & { criteria?: Json[] };
    let criteria = (now.criteria ?? []).map(inputSpelling);
    const { keyword, platform_one: platformOne } = partial.targeting;
    if (keyword) {
      const at = criteria.findIndex((c) => 'keyword_targeting' in c);
      if (at >= 0) criteria[at] = { keyword_targeting: keyword };
      else criteria.push({ keyword_targeting: keyword });
    }
    if (platformOne === true && !criteria.some((c) => 'platform_one' in c)) criteria.push({ platform_one: {} });
    if (platformOne === false) criteria = criteria.filter((c) => !('platform_one' in c));
    const given = partial.targeting as Json;
    out.targeting = { ...Object.fromEntries(TARGETING_SETTINGS.map((key) => [key, given[key] ?? now[key]])), criteria };
  }
  return { item: out };
}

type Money = { amount_e5?: string; currency_code?: string } | undefined;

/** The currencies of a resource's or an item's amounts: its budget's, then its manual bid's. */
function currencies(resource: Json): string[] {
  const budget = (resource.budget as { total?: Money } | undefined)?.total;
  const bid = (resource.bidding as { manual?: { bid_amount?: Money } } | undefined)?.manual?.bid_amount;
  return [budget?.currency_code, bid?.currency_code].filter((code): code is string => code !== undefined);
}

/** The currency a resource's amounts are in (the API holds them all to the account's). */
function currencyOf(resource: Json): string | undefined {
  return currencies(resource)[0];
}

/**
 * An amount in another currency than the resource's is refused before anything is sent (the
 * API would refuse it too, for this item only, after the write was sent).
 */
function sameCurrency(item: Json, current: Json, idField: string): { item: Json } | { problem: { field: string; message: string } } {
  const theirs = currencyOf(current);
  const ours = currencies(item).find((code) => code !== theirs);
  if (!theirs || !ours) return { item };
  const noun = idField.replace(/_id$/, '').replace(/_/g, ' ');
  return {
    problem: {
      field: 'currency',
      message: `currency ${ours} does not match ${noun} ${String(item[idField])}, which is in ${theirs}: leave out currency to use ${theirs}`,
    },
  };
}

/** A response criterion in the input's spelling (match types EXACT/BROAD), in nested groups too. */
function inputSpelling(criterion: Json): Json {
  const group = criterion.criteria as (Json & { criteria?: Json[] }) | undefined;
  if (group && Array.isArray(group.criteria)) return { criteria: { ...group, criteria: group.criteria.map(inputSpelling) } };
  const keyword = criterion.keyword_targeting as { keywords: string[]; match_type: string } | undefined;
  return keyword ? { keyword_targeting: { ...keyword, match_type: keyword.match_type.replace(/^MATCH_TYPE_/, '') } } : criterion;
}
