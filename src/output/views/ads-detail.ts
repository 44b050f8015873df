// The fields of one campaign, ad group or ad as `... view` shows them on a terminal.
import type { Ad, AdGroup, Campaign, CurrencyAmount } from '../../schemas/ads.js';
import { adGroupStatus, adProduct, budgetUnit, campaignStatus, matchType } from '../../schemas/friendly.js';
import type { DetailField } from '../detail.js';
import { money } from './ads.js';
import type { AD_FIELDS, AD_GROUP_FIELDS, AdsField, CAMPAIGN_FIELDS } from '../../schemas/ads-fields.js';

/** The labels a field table gives its fields in `view` (several fields may share one). */
type ViewLabel<T extends readonly AdsField[]> = Extract<T[number], { view: string }>['view'];

/**
 * A view's lines: each labelled by one of the table's labels or one of the resource's own
 * (`Extra`: created, updated...), so a label renamed in the table fails typecheck here; the
 * unit test checks every table label is shown.
 */
function detail<T extends readonly AdsField[], Extra extends string = never>(
  fields: Array<[label: ViewLabel<T> | Extra, value: DetailField[1]]>,
): DetailField[] {
  return fields;
}

/** The OpenAPI's dayparting_day_schedule lists seven days, Monday first. */
const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];

type Json = Record<string, unknown>;

const time = (t: unknown) => {
  const { hour, minute } = (t ?? {}) as { hour?: number; minute?: number };
  return `${String(hour ?? 0).padStart(2, '0')}:${String(minute ?? 0).padStart(2, '0')}`;
};

function budget(b: Campaign['budget'] | undefined): string | undefined {
  return b ? `${money(b.total)} ${budgetUnit.toFriendly(b.unit) ?? ''}`.trim() : undefined;
}

function bidding(value: unknown): string | undefined {
  const b = value as Json | undefined;
  if (!b) return undefined;
  if ('auto' in b) return 'automatic';
  if ('manual' in b) return `manual, ${money((b.manual as Json).bid_amount as CurrencyAmount)}`;
  if ('goal_based' in b) return `goal-based, ROAS goal ${String((b.goal_based as Json).roas_goal)}`;
  return JSON.stringify(b);
}

type Group = { negation?: boolean; operator?: string; criteria?: Json[] };

function targeting(value: unknown): string[] {
  const t = value as Group | undefined;
  return t?.criteria?.length ? group(t, '') : [];
}

/** A group of criteria: its heading, then one line per criterion (a nested group indented under its own heading). */
function group(t: Group, indent: string): string[] {
  const lines = [`${indent}${t.negation ? 'everyone except: ' : ''}${t.operator === 'OR' ? 'any of' : 'all of'}:`];
  for (const criterion of t.criteria ?? []) {
    const [kind, detail] = Object.entries(criterion)[0] ?? ['?', {}];
    if (kind === 'criteria' && detail && typeof detail === 'object') lines.push(...group(detail, `${indent}  `));
    else lines.push(`${indent}  ${criterionLine(kind, detail)}`);
  }
  return lines;
}

function criterionLine(kind: string, detail: unknown): string {
  if (kind === 'keyword_targeting') {
    const k = detail as { keywords?: string[]; match_type?: string };
    return `keywords (${matchType.toFriendly(k.match_type) ?? k.match_type ?? ''}): ${(k.keywords ?? []).join(', ')}`;
  }
  if (kind === 'order_frequency') {
    const f = (detail ?? {}) as { lower_bound?: number; upper_bound?: number; time_range?: { past_days_range?: { start_day?: number; end_day?: number } } };
    const days = f.time_range?.past_days_range;
    const upper = f.upper_bound === undefined || f.upper_bound === -1 ? 'no upper limit' : `fewer than ${f.upper_bound}`;
    const range = days ? `, days ${days.start_day ?? 0} to ${days.end_day ?? '?'} ago` : '';
    return `order frequency: more than ${f.lower_bound ?? 0} orders, ${upper}${range}`;
  }
  const empty = detail && typeof detail === 'object' && Object.keys(detail).length === 0;
  return empty ? kind.replace(/_/g, ' ') : `${kind.replace(/_/g, ' ')}: ${JSON.stringify(detail)}`;
}

function dayparting(value: unknown): string[] {
  const days = (value as { dayparting_day_schedule?: Array<{ intervals?: Json[] }> } | undefined)?.dayparting_day_schedule;
  if (!days) return [];
  return days.map(
    (d, i) =>
      `${WEEKDAYS[i] ?? `day ${i + 1}`}: ${d.intervals?.length ? d.intervals.map((iv) => `${time(iv.start_time)}-${time(iv.end_time)}`).join(', ') : 'off'}`,
  );
}

function schedule(value: unknown): string | undefined {
  const s = value as { start_time?: string; end_time?: string } | undefined;
  return s ? `${s.start_time ?? '?'} to ${s.end_time ?? 'no end'}` : undefined;
}

export function campaignDetail(c: Campaign): DetailField[] {
  return detail<typeof CAMPAIGN_FIELDS, 'Ad groups' | 'Created' | 'Updated'>([
    ['ID', c.campaign_id],
    ['Name', c.name],
    [
      'Status',
      `${campaignStatus.toFriendly(c.configured_status) ?? ''}${c.effective_status ? ` (effective: ${c.effective_status.replace('CAMPAIGN_EFFECTIVE_STATUS_', '').toLowerCase()})` : ''}`,
    ],
    ['Budget', budget(c.budget)],
    ['Ad groups', (c.ad_groups ?? []).map((g) => `${g.ad_group_id}  ${g.name}`)],
    ['Created', c.created_at && `${c.created_at}${c.created_by_email ? ` by ${c.created_by_email}` : ''}`],
    ['Updated', c.updated_at && `${c.updated_at}${c.updated_by_email ? ` by ${c.updated_by_email}` : ''}`],
  ]);
}

export function adGroupDetail(g: AdGroup): DetailField[] {
  const raw = g as unknown as Json;
  const stores = ((raw.subjects ?? raw.ad_subjects) as { stores?: { store_ids?: string[] } } | undefined)?.stores?.store_ids;
  return detail<typeof AD_GROUP_FIELDS>([
    ['ID', g.ad_group_id],
    ['Name', g.name],
    ['Campaign', g.campaign_id],
    ['Product', adProduct.toFriendly(g.ad_product)],
    ['Status', adGroupStatus.toFriendly(g.configured_status)],
    ['Budget', budget(raw.budget as Campaign['budget'] | undefined)],
    ['Bidding', bidding(raw.bidding)],
    ['Schedule', schedule(raw.schedule)],
    ['Targeting', targeting(raw.targeting)],
    ['Dayparting', dayparting(raw.dayparting_schedule)],
    ['Stores', stores?.join(', ')],
  ]);
}

export function adDetail(a: Ad): DetailField[] {
  return detail<typeof AD_FIELDS>([
    ['ID', a.ad_id],
    ['Name', a.name],
    ['Ad group', a.ad_group_id],
    ['Campaign', a.campaign_id],
  ]);
}
