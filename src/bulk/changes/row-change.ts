// What a row replaces, as its run's journal keeps it for `runs show` and `runs undo`: the
// top-level fields the row's item sets, before (as read for the merge, in the input's
// spelling, so they can be sent back) and after (as sent). Top-level, because the API
// replaces budget, schedule and targeting whole: restoring a field restores all of it.
import { Budget, BudgetInput } from '../../schemas/ads.js';
import { flatten, inputSpelling } from './diff.js';

type Json = Record<string, unknown>;

/**
 * What a planned row's resource must still be for the row to be sent (plan-check.ts): the
 * leaves of the fields it sets, exactly as read when the plan was made (`current`), or at
 * least the values a run wrote (`written`: an undo).
 */
export type Expectation = { current: Record<string, unknown> } | { written: Json };

/** `before` lacks a field the resource did not have; a create has no `before`. */
export interface RowChange {
  before?: Json;
  after: Json;
}

/**
 * Parts of a response no request can write (a budget's cofunding_sources): left out of the
 * values kept to restore, which are sent back as they are (a write drops them; undo cannot restore them).
 */
const RESPONSE_ONLY: Record<string, string[]> = { budget: Object.keys(Budget.shape).filter((key) => !(key in BudgetInput.shape)) };

function writable(key: string, value: unknown): unknown {
  const only = RESPONSE_ONLY[key];
  if (!only || typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([inner]) => !only.includes(inner)));
}

/** The response's name of an input field (a patch's ad_subjects is the response's subjects). */
export function currentValue(current: Json, key: string): unknown {
  return key === 'ad_subjects' && 'subjects' in current ? current.subjects : current[key];
}

/**
 * The change a row makes: a patch's fields against `current` (null: not found, nothing to
 * keep); a create's status only (what undo by pausing compares with), none without one.
 */
export function rowChange(item: Json, current: Json | null | undefined, idField: string): RowChange | null {
  if (current === undefined) return 'configured_status' in item ? { after: { configured_status: item.configured_status } } : null;
  if (current === null) return null;
  const before: Json = {};
  const after: Json = {};
  for (const key of Object.keys(item)) {
    if (key === idField) continue;
    after[key] = item[key];
    const value = currentValue(current, key);
    if (value !== undefined) before[key] = writable(key, inputSpelling(value, key));
  }
  return { before, after };
}

/** The values of the fields an item sets, leaf by leaf (`budget.total.amount_e5` -> value), as `current` has them. */
export function touchedValues(item: Json, current: Json, idField: string): Record<string, unknown> {
  const out = new Map<string, unknown>();
  for (const key of Object.keys(item)) {
    if (key === idField) continue;
    const value = currentValue(current, key);
    if (value !== undefined) flatten(inputSpelling(value, key), key, out);
  }
  return Object.fromEntries(out);
}
