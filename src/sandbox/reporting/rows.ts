// The rows of a report: one per entity (campaign, ad group or keyword) and period, entity by
// entity in the account's order, periods ascending; rows without impressions are left out.
// Each row sums the entity's days in the period and computes its ratios from those sums.
// A day is delivered in the state the campaign and its ad groups had then, so later writes
// leave past rows as they were.
import { columnDef, formatUtc, outputColumns, periodStarts, type CheckedReport, type ColumnType } from '../../schemas/reports.js';
import type { Targeting } from '../../schemas/ads.js';
import type { DataStore, AdGroupValue, CampaignValue } from '../store.js';
import type { DeliveryHistory } from './history.js';
import { addInto, campaignDay, DAY_MS, HOUR_WEIGHTS, keywordWeights, splitTotals, zero, type CampaignDay, type Totals } from './metrics.js';

export interface ReportColumn {
  name: string;
  type: ColumnType;
}

export interface ReportRows {
  columns: ReportColumn[];
  rows: Iterable<string[]>;
}

type Dimensions = Record<string, string>;

interface Entity {
  dims: Dimensions;
  /** The entity's totals on one day of its campaign's delivery. */
  totals(day: CampaignDay, dayIndex: number): Totals | undefined;
}

/**
 * Rows of `report` for the account. Only days that ended by `now` have delivery (no data for
 * today or the future).
 */
export function reportRows(store: DataStore, accountId: string, currency: string, report: CheckedReport, now: number): ReportRows {
  const names = outputColumns(report.columns, report.unit);
  const columns = names.map((name) => ({ name, type: columnDef(name)!.type }));
  return { columns, rows: generateRows(store, accountId, currency, report, now, names) };
}

function* generateRows(store: DataStore, accountId: string, currency: string, report: CheckedReport, now: number, names: string[]): Generator<string[]> {
  const lastDay = Math.min(report.end, Math.floor(now / DAY_MS) * DAY_MS);
  const firstDay = Math.floor(report.start / DAY_MS) * DAY_MS;
  const periods = periodStarts(report.unit, report.start, report.end);
  const labels = periods.map(formatUtc);
  const hourly = report.unit === 'HOURLY';
  for (const rec of store.campaigns(accountId)) {
    const campaign = rec.value;
    const groups = store.adGroups(campaign.campaign_id).map((g) => g.value);
    const entities = entitiesOf(report.type.name, campaign, groups, currency).filter((e) => matches(e.dims, report));
    if (entities.length === 0) continue;
    const days: CampaignDay[] = [];
    for (let day = firstDay; day < lastDay; day += DAY_MS) days.push(deliveryOn(store.history, campaign, groups, day));
    for (const entity of entities) {
      const perPeriod = periods.map(() => zero());
      days.forEach((d, i) => {
        const t = entity.totals(d, i);
        if (!t || t.impressions === 0) return;
        const day = firstDay + i * DAY_MS;
        if (hourly) {
          splitTotals(t, HOUR_WEIGHTS).forEach((h, hour) => {
            const p = periodIndex(periods, day + hour * 3_600_000, report.end);
            if (p >= 0) addInto(perPeriod[p]!, h);
          });
        } else {
          const p = periodIndex(periods, day, report.end);
          if (p >= 0) addInto(perPeriod[p]!, t);
        }
      });
      for (const [p, t] of perPeriod.entries()) {
        if (t.impressions === 0) continue;
        yield names.map((name) => cell(name, entity.dims, t, labels[p]!));
      }
    }
  }
}

/** The campaign's delivery on a day, in the state it and its ad groups had then (history.ts). */
function deliveryOn(history: DeliveryHistory, campaign: CampaignValue, groups: readonly AdGroupValue[], day: number): CampaignDay {
  const then = history.campaignOn(campaign, day);
  if (!then) return { campaign: zero(), groups: new Map() };
  const groupsThen = groups.flatMap((g) => history.adGroupOn(g, day) ?? []);
  return campaignDay(then, groupsThen, day);
}

/** Index of the period holding `t`, or -1 outside the range. Periods are ascending and contiguous. */
function periodIndex(periods: number[], t: number, end: number): number {
  if (t < periods[0]! || t >= end) return -1;
  let lo = 0;
  let hi = periods.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (periods[mid]! <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function entitiesOf(type: string, campaign: CampaignValue, groups: AdGroupValue[], currency: string): Entity[] {
  const campaignDims = { campaign_id: campaign.campaign_id, campaign_name: campaign.name, currency_code: currency };
  if (type === 'CAMPAIGN_PERFORMANCE') return [{ dims: campaignDims, totals: (d) => d.campaign }];
  const out: Entity[] = [];
  for (const g of groups) {
    const dims = { ...campaignDims, ad_group_id: g.ad_group_id, ad_group_name: g.name, ad_product: g.ad_product };
    if (type === 'AD_PERFORMANCE') {
      out.push({ dims, totals: (d) => d.groups.get(g.ad_group_id) });
      continue;
    }
    const keywords = groupKeywords(g);
    if (keywords.length === 0) continue;
    const weights = keywordWeights(g.ad_group_id, keywords.length);
    // Split each day once and hand the parts to the keyword entities.
    const cache = new Map<number, Totals[]>();
    const partsOf = (d: CampaignDay, i: number) => {
      let parts = cache.get(i);
      if (!parts) {
        const t = d.groups.get(g.ad_group_id);
        parts = t ? splitTotals(t, weights) : [];
        cache.set(i, parts);
      }
      return parts;
    };
    keywords.forEach(({ keyword, match_type }, k) => {
      out.push({ dims: { ...dims, keyword, match_type }, totals: (d, i) => partsOf(d, i)[k] });
    });
  }
  return out;
}

/** Distinct keywords of an ad group's keyword targeting, with their match type. */
function groupKeywords(g: AdGroupValue): Array<{ keyword: string; match_type: string }> {
  const out = new Map<string, string>();
  // Stored ad groups passed the create/patch schema, so targeting has that shape when present.
  const criteria = (g.targeting as Targeting | undefined)?.criteria ?? [];
  for (const c of criteria) {
    const kt = 'keyword_targeting' in c ? c.keyword_targeting : undefined;
    if (!kt) continue;
    const match = kt.match_type.startsWith('MATCH_TYPE_') ? kt.match_type : `MATCH_TYPE_${kt.match_type}`;
    for (const k of kt.keywords) if (!out.has(k)) out.set(k, match);
  }
  return [...out].map(([keyword, match_type]) => ({ keyword, match_type }));
}

function matches(dims: Dimensions, report: CheckedReport): boolean {
  return report.filters.every((f) => {
    const value = dims[f.column] ?? '';
    const hit = f.values.includes(value);
    return f.operator === 'NOT_EQUAL' ? !hit : hit;
  });
}

const money = (cents: number) => (cents / 100).toFixed(2);
// A ratio whose denominator is 0 (no clicks, no orders, no spend) is written as 0.
const ratio = (a: number, b: number) => String(b === 0 ? 0 : a / b);

function cell(name: string, dims: Dimensions, t: Totals, period: string): string {
  switch (name) {
    case 'hour_of':
    case 'day_of':
    case 'week_of':
    case 'month_of':
      return period;
    case 'impressions':
      return String(t.impressions);
    case 'clicks':
      return String(t.clicks);
    case 'click_through_rate':
      return ratio(t.clicks, t.impressions);
    case 'ad_spend':
      return money(t.spend);
    case 'cost_per_click':
      return ratio(t.spend, t.clicks * 100);
    case 'cost_per_mille':
      return ratio(t.spend * 10, t.impressions);
    case 'orders_7d_on_click_date':
      return String(t.orders);
    case 'sales_7d_on_click_date':
      return money(t.sales);
    case 'roas_7d_on_click_date':
      return ratio(t.sales, t.spend);
    case 'conversion_rate_7d_on_click_date':
      return ratio(t.orders, t.clicks);
    case 'cost_per_order_7d_on_click_date':
      return ratio(t.spend, t.orders * 100);
    default:
      return dims[name] ?? '';
  }
}
