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

/** Create input spells match types EXACT/BROAD; responses use MATCH_TYPE_*. */
export function normalizeTargeting<T extends { criteria: Criterion[] } | undefined>(targeting: T): T {
  if (!targeting) return targeting;
  const criteria = targeting.criteria.map((c) => {
    const kw = c.keyword_targeting as { keywords: string[]; match_type: string } | undefined;
    if (!kw) return c;
    const match_type = kw.match_type.startsWith('MATCH_TYPE_') ? kw.match_type : `MATCH_TYPE_${kw.match_type}`;
    return { ...c, keyword_targeting: { ...kw, match_type } };
  });
  return { ...targeting, criteria };
}
