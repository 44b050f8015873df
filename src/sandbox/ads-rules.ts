// Per-item business rules of batch writes: currencies, stores, schedules.
import { ItemError } from './ads-common.js';
import type { AccountRecord } from './store.js';

interface Money {
  amount_e5: string;
  currency_code: string;
}

export function checkCurrency(account: AccountRecord, field: string, money: Money | undefined): void {
  if (!money) return;
  const expected = account.value.currency_code;
  if (money.currency_code !== expected) {
    throw new ItemError('InvalidArgument', `${field}: currency ${money.currency_code} does not match the account currency ${expected}`);
  }
}

export function checkStores(account: AccountRecord, storesOfAccount: ReadonlyArray<{ id: string }>, field: string, ids: string[] | undefined): void {
  if (!ids) return;
  const known = new Set(storesOfAccount.map((s) => s.id));
  const unknown = ids.filter((id) => !known.has(id));
  if (unknown.length > 0) {
    throw new ItemError('InvalidArgument', `${field}: store ${unknown.join(', ')} is not in account ${account.value.ad_account_id}`);
  }
}

export function checkSchedule(field: string, schedule: { start_time: string; end_time?: string } | undefined): void {
  if (!schedule?.end_time) return;
  if (Date.parse(schedule.end_time) < Date.parse(schedule.start_time)) {
    throw new ItemError('InvalidArgument', `${field}.end_time: must not be before start_time`);
  }
}

type Criterion = Record<string, unknown>;

/** Create input spells match types EXACT/BROAD; responses use MATCH_TYPE_* (nested groups too). */
export function normalizeTargeting<T extends { criteria?: unknown[] } | undefined>(targeting: T): T {
  if (!targeting?.criteria) return targeting;
  const criteria = (targeting.criteria as Criterion[]).map((c) => {
    if (c.criteria) return { ...c, criteria: normalizeTargeting(c.criteria as { criteria: unknown[] }) };
    const kw = c.keyword_targeting as { keywords: string[]; match_type: string } | undefined;
    if (!kw) return c;
    const match_type = kw.match_type.startsWith('MATCH_TYPE_') ? kw.match_type : `MATCH_TYPE_${kw.match_type}`;
    return { ...c, keyword_targeting: { ...kw, match_type } };
  });
  return { ...targeting, criteria };
}

/** The nested objects of an update that an empty object clears (the OpenAPI's text). */
const CLEARABLE = ['budget', 'targeting', 'dayparting_schedule'] as const;

/**
 * An update's changes with each cleared field (sent as {}) as `undefined`, and the names of
 * those fields: the caller applies the changes, then deletes them.
 */
export function clearedFields<C extends object>(changes: C): { changes: C; cleared: string[] } {
  const cleared = CLEARABLE.filter((key) => {
    const value = (changes as Record<string, unknown>)[key];
    return value !== undefined && typeof value === 'object' && value !== null && Object.keys(value).length === 0;
  });
  if (cleared.length === 0) return { changes, cleared };
  return { changes: { ...changes, ...Object.fromEntries(cleared.map((key) => [key, undefined])) }, cleared: [...cleared] };
}
