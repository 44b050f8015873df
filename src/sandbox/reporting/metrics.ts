// Deterministic daily delivery of the seeded campaigns: the same campaign, ad group and day
// always give the same numbers. Leaves are ad-group days (or campaign days for a campaign
// without ad groups); everything larger is a sum of them, so totals always add up.
// Invariants: orders <= clicks <= impressions in every cell, and a day's spend never exceeds
// the daily share of the ad group's or the campaign's budget (a WEEKLY budget / 7, a FIXED
// budget over its schedule), so no week or month spends more than its budget either.
import { hash32, intBetween, mulberry32, type Rng } from '../prng.js';
import type { AdGroupValue, CampaignValue } from '../store.js';

/** Integer totals; money in minor units (cents). */
export interface Totals {
  impressions: number;
  clicks: number;
  orders: number;
  spend: number;
  sales: number;
}

export const DAY_MS = 86_400_000;
/** A FIXED budget without an end date is spread over this many days (ours). */
const FIXED_BUDGET_DEFAULT_DAYS = 30;

export const zero = (): Totals => ({ impressions: 0, clicks: 0, orders: 0, spend: 0, sales: 0 });

export function addInto(into: Totals, t: Totals): void {
  into.impressions += t.impressions;
  into.clicks += t.clicks;
  into.orders += t.orders;
  into.spend += t.spend;
  into.sales += t.sales;
}

/** Scales delivery down by `f` (0..1); floors keep orders <= clicks <= impressions. */
export function scaled(t: Totals, f: number): Totals {
  return {
    impressions: Math.floor(t.impressions * f),
    clicks: Math.floor(t.clicks * f),
    orders: Math.floor(t.orders * f),
    spend: Math.floor(t.spend * f),
    sales: Math.floor(t.sales * f),
  };
}

/** Raw (uncapped) delivery of one leaf on one day; weekends run a little hotter. */
export function rawDay(id: string, day: number): Totals {
  const rng: Rng = mulberry32(hash32(`${id}:${day / DAY_MS}`));
  const weekday = new Date(day).getUTCDay();
  const boost = weekday === 0 || weekday === 6 ? 1.3 : 1;
  const impressions = Math.round(intBetween(rng, 300, 6000) * boost);
  const clicks = Math.floor(impressions * (0.005 + rng() * 0.035));
  const spend = clicks * intBetween(rng, 30, 180);
  const orders = Math.floor(clicks * (0.03 + rng() * 0.12));
  const sales = orders * intBetween(rng, 1200, 6000);
  return { impressions, clicks, orders, spend, sales };
}

/** Daily spend cap in cents from a budget (amount_e5 is the amount x 10^5); Infinity without one. */
export function dailyCap(budget: CampaignValue['budget'], schedule?: { start_time: string; end_time?: string }): number {
  if (!budget) return Infinity;
  const cents = Math.floor(Number(budget.total.amount_e5) / 1000);
  if (budget.unit === 'BUDGET_UNIT_DAILY') return cents;
  if (budget.unit === 'BUDGET_UNIT_WEEKLY') return Math.floor(cents / 7);
  const start = schedule ? Date.parse(schedule.start_time) : NaN;
  const end = schedule?.end_time ? Date.parse(schedule.end_time) : NaN;
  const days = Number.isFinite(start) && Number.isFinite(end) && end > start ? Math.ceil((end - start) / DAY_MS) : FIXED_BUDGET_DEFAULT_DAYS;
  return Math.floor(cents / days);
}

function capped(t: Totals, cap: number): Totals {
  return t.spend > cap ? scaled(t, cap / t.spend) : t;
}

function groupServes(group: AdGroupValue, day: number): boolean {
  if (group.configured_status !== 'AD_GROUP_CONFIGURED_STATUS_ACTIVE') return false;
  const start = Date.parse(group.schedule.start_time);
  const end = group.schedule.end_time ? Date.parse(group.schedule.end_time) : Infinity;
  return start < day + DAY_MS && end > day;
}

export interface CampaignDay {
  campaign: Totals;
  /** Per ad group id (only groups that served). */
  groups: Map<string, Totals>;
}

/**
 * One campaign's delivery on the UTC day starting at `day`: each serving ad group capped by
 * its budget, then all of them scaled down together to fit the campaign's budget.
 */
export function campaignDay(campaign: CampaignValue, groups: readonly AdGroupValue[], day: number): CampaignDay {
  const result: CampaignDay = { campaign: zero(), groups: new Map() };
  if (campaign.configured_status !== 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE') return result;
  const campaignCap = dailyCap(campaign.budget);
  if (groups.length === 0) {
    // A campaign with no ad groups (the seed gives groups to the first 300 only) serves on its own.
    result.campaign = capped(rawDay(campaign.campaign_id, day), campaignCap);
    return result;
  }
  const raw: Array<[string, Totals]> = [];
  let spend = 0;
  for (const g of groups) {
    if (!groupServes(g, day)) continue;
    const t = capped(rawDay(g.ad_group_id, day), dailyCap(g.budget, g.schedule));
    raw.push([g.ad_group_id, t]);
    spend += t.spend;
  }
  const f = spend > campaignCap ? campaignCap / spend : 1;
  for (const [id, t] of raw) {
    const final = f < 1 ? scaled(t, f) : t;
    result.groups.set(id, final);
    addInto(result.campaign, final);
  }
  return result;
}

/**
 * Splits `total` over `weights` so the parts add up to it exactly, each part at most its
 * `caps` entry (sum(caps) >= total): floors of the cumulative shares, then the excess moved
 * to parts with room, in order.
 */
export function splitUnder(total: number, weights: readonly number[], caps?: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const parts: number[] = [];
  let acc = 0;
  let given = 0;
  for (const w of weights) {
    acc += w;
    const upTo = Math.floor((total * acc) / sum);
    parts.push(upTo - given);
    given = upTo;
  }
  parts[parts.length - 1]! += total - given;
  if (!caps) return parts;
  let excess = 0;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i]! > caps[i]!) {
      excess += parts[i]! - caps[i]!;
      parts[i] = caps[i]!;
    }
  }
  for (let i = 0; i < parts.length && excess > 0; i++) {
    const room = Math.min(excess, caps[i]! - parts[i]!);
    parts[i]! += room;
    excess -= room;
  }
  return parts;
}

/** Splits a day's totals over parts (hours, keywords) by weight, keeping orders <= clicks <= impressions per part. */
export function splitTotals(t: Totals, weights: readonly number[]): Totals[] {
  const impressions = splitUnder(t.impressions, weights);
  const clicks = splitUnder(t.clicks, weights, impressions);
  const orders = splitUnder(t.orders, weights, clicks);
  const spend = splitUnder(t.spend, weights);
  const sales = splitUnder(t.sales, weights);
  return weights.map((_, i) => ({ impressions: impressions[i]!, clicks: clicks[i]!, orders: orders[i]!, spend: spend[i]!, sales: sales[i]! }));
}

/** Share of a day's delivery per UTC hour: quiet nights, lunch and dinner peaks. */
export const HOUR_WEIGHTS: readonly number[] = [2, 1, 1, 1, 1, 1, 2, 3, 4, 4, 5, 8, 10, 8, 5, 4, 4, 6, 9, 10, 8, 6, 4, 3];

/** Weights of a keyword-targeted ad group's keywords (stable per ad group). */
export function keywordWeights(adGroupId: string, count: number): number[] {
  const rng = mulberry32(hash32(`keywords:${adGroupId}`));
  return Array.from({ length: count }, () => intBetween(rng, 1, 10));
}
