// "What would change": the fields a patch item sets, against the current resource: in the
// API's exact terms (describeChanges: JSON and CSV carry these), or in a person's
// (showChanges: the table of a dry run): amounts as decimals with their currency, statuses
// and budget units by their short names.
import { adGroupStatus, budgetUnit, campaignStatus } from '../../schemas/friendly.js';
import { e5ToDecimal } from '../../schemas/money.js';
import { formatDayparting } from '../../schemas/dayparting.js';

/** The leaves of a value by dotted path (an array is one leaf). */
export function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (value && typeof value === 'object' && !Array.isArray(value) && Object.keys(value).length) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
  } else {
    out.set(prefix, value);
  }
}

const show = (value: unknown) => (value === undefined ? '(none)' : typeof value === 'string' ? value : JSON.stringify(value));

/** `name: Old -> New; budget.total.amount_e5: 100 -> 200` for the fields that differ. */
export function describeChanges(item: Record<string, unknown>, current: Record<string, unknown> | undefined, idField: string): string[] {
  const { wanted, present } = leaves(item, current);
  const changes: string[] = [];
  for (const [path, value] of wanted) {
    if (path === idField) continue;
    if (clearsAt(path, value)) {
      // The whole object goes: shown as it is now, unless there is none to remove.
      const now = current?.[path];
      if (!isAbsent(now)) changes.push(`${path}: ${show(inputSpelling(now, path))} -> {}`);
      continue;
    }
    const before = present.get(path);
    if (differ(before, value)) changes.push(`${path}: ${show(before)} -> ${show(value)}`);
  }
  return changes;
}

/** An update's `{}`: the field is removed (the OpenAPI's text: "an empty budget removes the budget"). */
export function isClear(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length === 0;
}

/** A top-level `{}` of an item clears its field (a nested one is a value: `bidding.auto`, `platform_one`). */
const clearsAt = (path: string, value: unknown) => !path.includes('.') && isClear(value);

/** A resource's field that a clear would not change: not there, or already empty. */
const isAbsent = (value: unknown) => value === undefined || value === null || isClear(value);

/** The item's leaves by dotted path, and the current resource's in the input's spelling. */
function leaves(item: Record<string, unknown>, current: Record<string, unknown> | undefined): { wanted: Map<string, unknown>; present: Map<string, unknown> } {
  const wanted = new Map<string, unknown>();
  flatten(item, '', wanted);
  const present = new Map<string, unknown>();
  // A patch's ad_subjects is the response's subjects; its match types are spelled EXACT/BROAD.
  const currentInput = current && 'subjects' in current ? { ...current, ad_subjects: current.subjects } : current;
  flatten(inputSpelling(currentInput ?? {}), '', present);
  return { wanted, present };
}

const differ = (before: unknown, after: unknown) => JSON.stringify(before) !== JSON.stringify(after);

/** Amounts a person reads as one value: the amount and its currency. */
const MONEY = [
  { path: 'budget.total', name: 'budget' },
  { path: 'bidding.manual.bid_amount', name: 'bid' },
];

/** Enum fields by their CSV column name and short value. */
const SHORT: Record<string, { name: string; short: (value: string) => string | undefined }> = {
  configured_status: { name: 'status', short: (value) => campaignStatus.toFriendly(adGroupStatus.toFriendly(value)) },
  'budget.unit': { name: 'budget_unit', short: (value) => budgetUnit.toFriendly(value) },
};

/** `budget: 50.00 -> 75.50 USD; status: active -> paused`: the same changes as describeChanges, for a person. */
export function showChanges(item: Record<string, unknown>, current: Record<string, unknown> | undefined, idField: string): string[] {
  const { wanted, present } = leaves(item, current);
  const changes: string[] = [];
  const shown = new Set<string>();
  for (const [path, value] of wanted) {
    if (path === idField || shown.has(path)) continue;
    if (clearsAt(path, value)) {
      const now = current?.[path];
      if (!isAbsent(now)) changes.push(`${CLEARED_NAME[path] ?? path}: ${showCleared(path, now)} -> (cleared)`);
      continue;
    }
    const money = MONEY.find((m) => path === `${m.path}.amount_e5` || path === `${m.path}.currency_code`);
    if (money) {
      const [amount, currency] = [`${money.path}.amount_e5`, `${money.path}.currency_code`];
      shown.add(amount).add(currency);
      const was = { amount: present.get(amount), currency: present.get(currency) };
      const now = { amount: wanted.get(amount) ?? was.amount, currency: wanted.get(currency) ?? was.currency };
      if (differ(was, now)) changes.push(`${money.name}: ${showMoney(was, now)}`);
      continue;
    }
    const before = present.get(path);
    if (!differ(before, value)) continue;
    const short = SHORT[path];
    const word = (v: unknown) => (short && typeof v === 'string' ? (short.short(v) ?? v) : show(v));
    changes.push(`${short?.name ?? path}: ${word(before)} -> ${word(value)}`);
  }
  return changes;
}

/** A cleared field by the name a person knows it by (its flag's and column's). */
const CLEARED_NAME: Record<string, string> = { dayparting_schedule: 'dayparting' };

/** What a clear removes, for a person: `50.00 USD daily`, `mon=11:00-14:00`, `keyword_targeting AND platform_one`. */
function showCleared(path: string, now: unknown): string {
  if (path === 'budget') {
    const budget = now as { unit?: string; total?: { amount_e5?: string; currency_code?: string } };
    const amount = budget.total?.amount_e5;
    const unit = budget.unit !== undefined ? (budgetUnit.toFriendly(budget.unit) ?? budget.unit) : undefined;
    return [amount !== undefined && /^\d+$/.test(amount) ? e5ToDecimal(amount) : undefined, budget.total?.currency_code, unit].filter(Boolean).join(' ');
  }
  if (path === 'dayparting_schedule') return formatDayparting(now) || 'every day off';
  if (path === 'targeting') {
    const targeting = now as { operator?: string; negation?: boolean; criteria?: Array<Record<string, unknown>> };
    const kinds = (targeting.criteria ?? []).flatMap((c) => Object.keys(c)).join(` ${targeting.operator ?? 'AND'} `) || 'no criteria';
    return targeting.negation ? `not (${kinds})` : kinds;
  }
  return show(now);
}

/** An amount_e5 as a decimal (one that is not digits as it is). */
const decimal = (amount: unknown) => (typeof amount === 'string' && /^\d+$/.test(amount) ? e5ToDecimal(amount) : show(amount));

/**
 * Two sets of leaves by dotted path (row-change.ts `touchedValues`) where they differ, for a
 * person: `budget: 455.00 USD -> 55.55 USD; status: active -> paused` (a conflict's message:
 * amounts as decimals with their currency, never amount_e5).
 */
export function showDifferences(from: Record<string, unknown>, to: Record<string, unknown>): string[] {
  const changes: string[] = [];
  const shown = new Set<string>();
  for (const path of new Set([...Object.keys(from), ...Object.keys(to)])) {
    if (shown.has(path)) continue;
    const money = MONEY.find((m) => path === `${m.path}.amount_e5` || path === `${m.path}.currency_code`);
    if (money) {
      const [amount, currency] = [`${money.path}.amount_e5`, `${money.path}.currency_code`];
      shown.add(amount).add(currency);
      const [was, now] = [from, to].map((leaves) => (leaves[amount] === undefined ? '(none)' : `${decimal(leaves[amount])} ${show(leaves[currency])}`));
      if (differ(from[amount], to[amount]) || differ(from[currency], to[currency])) changes.push(`${money.name}: ${was} -> ${now}`);
      continue;
    }
    if (!differ(from[path], to[path])) continue;
    const short = SHORT[path];
    const word = (v: unknown) => (short && typeof v === 'string' ? (short.short(v) ?? v) : show(v));
    changes.push(`${short?.name ?? path}: ${word(from[path])} -> ${word(to[path])}`);
  }
  return changes;
}

/** `50.00 -> 75.50 USD`, `(none) -> 75.50 USD`, or `50.00 EUR -> 75.50 USD` when the currency changes too. */
function showMoney(was: { amount: unknown; currency: unknown }, now: { amount: unknown; currency: unknown }): string {
  const after = `${decimal(now.amount)} ${show(now.currency)}`;
  if (was.amount === undefined) return `(none) -> ${after}`;
  return was.currency === now.currency ? `${decimal(was.amount)} -> ${after}` : `${decimal(was.amount)} ${show(was.currency)} -> ${after}`;
}

/**
 * Whether the item sets nothing new: describeChanges(...).length === 0, without building
 * its text (this runs for every row of a patch).
 */
export function isUnchanged(item: Record<string, unknown>, current: Record<string, unknown>, idField: string): boolean {
  for (const key of Object.keys(item)) {
    if (key === idField) continue;
    // A clear changes nothing where there is nothing to remove.
    if (isClear(item[key])) {
      if (!isAbsent(current[key])) return false;
      continue;
    }
    if (!sameLeaves(item[key], key === 'ad_subjects' && 'subjects' in current ? current.subjects : current[key], key)) return false;
  }
  return true;
}

/** The leaves of `wanted` (as flatten sees them) against the same paths of `present`. */
function sameLeaves(wanted: unknown, present: unknown, key: string): boolean {
  if (wanted && typeof wanted === 'object' && !Array.isArray(wanted) && Object.keys(wanted).length) {
    const inner = present && typeof present === 'object' && !Array.isArray(present) ? (present as Record<string, unknown>) : {};
    return Object.entries(wanted).every(([k, v]) => sameLeaves(v, inner[k], k));
  }
  if (typeof wanted !== 'object' && typeof present !== 'object') return key === 'match_type' ? inputSpelling(present, key) === wanted : present === wanted;
  return JSON.stringify(inputSpelling(present, key)) === JSON.stringify(wanted);
}

/** A response value with the input's spellings: `match_type: MATCH_TYPE_EXACT` -> `EXACT`. */
export function inputSpelling(value: unknown, key = ''): unknown {
  if (Array.isArray(value)) return value.map((v) => inputSpelling(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, inputSpelling(v, k)]));
  return key === 'match_type' && typeof value === 'string' ? value.replace(/^MATCH_TYPE_/, '') : value;
}
