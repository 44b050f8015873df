// How ads resources look in tables and CSV. CSV names are the ones `--from-csv` reads.
import type { Ad, AdAccount, AdGroup, Campaign, CurrencyAmount, Store } from '../../schemas/ads.js';
import { e5ToDecimal } from '../../schemas/money.js';
import { adGroupStatus, adProduct, budgetUnit, campaignStatus, matchType } from '../../schemas/friendly.js';
import type { Column, View } from '../columns.js';
import { formatDayparting } from '../../schemas/dayparting.js';
import {
  fieldsInHelpOrder,
  type AD_FIELDS,
  type AD_GROUP_FIELDS,
  type AdsField,
  type AdsFieldResource,
  type CAMPAIGN_FIELDS,
} from '../../schemas/ads-fields.js';

/** The columns of a table's fields that `list` shows (those with a `list` header). */
type Listed<T extends readonly AdsField[]> = Extract<T[number], { list: string }>['column'];

/**
 * A list's columns: the field table's listed fields in the help's order, header and CSV
 * name from the table, rendered as `render` says (a listed field without one fails typecheck).
 */
function listColumns<T extends readonly AdsField[], R>(resource: AdsFieldResource, render: Record<Listed<T>, Omit<Column<R>, 'header' | 'name'>>): Column<R>[] {
  const renders = render as Record<string, Omit<Column<R>, 'header' | 'name'>>;
  return fieldsInHelpOrder(resource).flatMap((f) => (f.list === undefined ? [] : [{ header: f.list, name: f.column, ...renders[f.column]! }]));
}

/** "12.34 USD" for tables and -o text. */
export function money(amount: CurrencyAmount | undefined): string | undefined {
  return amount ? `${decimalOf(amount.amount_e5)} ${amount.currency_code ?? ''}`.trimEnd() : undefined;
}

/**
 * An amount_e5 as a decimal. The OpenAPI's amount is any string: one that is not digits is
 * shown as the API gave it, marked, rather than ending the command (-o json passes it as is).
 */
function decimalOf(amountE5: string | undefined): string {
  if (amountE5 === undefined) return '?';
  return /^\d+$/.test(amountE5) ? e5ToDecimal(amountE5) : `${amountE5} (amount_e5 is not digits)`;
}

const decimal = (amount: CurrencyAmount | undefined) => (amount ? decimalOf(amount.amount_e5) : undefined);
const day = (iso: string | undefined) => iso?.slice(0, 10);

export const accountView: View<AdAccount> = {
  noun: 'ad accounts',
  columns: [
    { header: 'ID', name: 'ad_account_id', csv: (a) => a.ad_account_id, kind: 'id' },
    { header: 'NAME', name: 'name', csv: (a) => a.name, kind: 'text' },
    { header: 'COUNTRY', name: 'country_code', csv: (a) => a.country_code, priority: 3 },
    { header: 'CURRENCY', name: 'currency_code', csv: (a) => a.currency_code, priority: 4 },
    { header: 'TYPE', name: 'account_type', csv: (a) => a.account_type, kind: 'id', priority: 1 },
    {
      header: 'BILLING',
      name: 'billing_type',
      csv: (a) => a.billing?.type,
      table: (a) => a.billing?.type?.replace('ACCOUNT_BILLING_MODE_', '').toLowerCase(),
      priority: 2,
    },
  ],
};

export const storeView: View<Store> = {
  noun: 'stores',
  columns: [
    { header: 'ID', name: 'id', csv: (s) => s.id, kind: 'id' },
    { header: 'NAME', name: 'name', csv: (s) => s.name, kind: 'text' },
    { header: 'CITY', name: 'city', csv: (s) => s.address?.city, priority: 4 },
    { header: 'REGION', name: 'region', csv: (s) => s.address?.region, priority: 1 },
    { header: 'COUNTRY', name: 'country', csv: (s) => s.address?.country, priority: 2 },
    { header: 'CURRENCY', name: 'currency_code', csv: (s) => s.currency_code, priority: 3 },
    { header: 'ADDRESS', name: 'address_line1', csv: (s) => s.address?.address_line1, csvOnly: true },
    { header: 'POSTAL CODE', name: 'postal_code', csv: (s) => s.address?.postal_code, csvOnly: true },
    { header: 'LATITUDE', name: 'latitude', csv: (s) => s.address?.latitude?.toString(), csvOnly: true },
    { header: 'LONGITUDE', name: 'longitude', csv: (s) => s.address?.longitude?.toString(), csvOnly: true },
  ],
};

export const campaignView: View<Campaign> = {
  noun: 'campaigns',
  columns: [
    ...listColumns<typeof CAMPAIGN_FIELDS, Campaign>('campaigns', {
      campaign_id: { csv: (c) => c.campaign_id, kind: 'id' },
      name: { csv: (c) => c.name, kind: 'text' },
      status: { csv: (c) => campaignStatus.toFriendly(c.configured_status) },
      budget: { csv: (c) => decimal(c.budget?.total), decimal: true, table: (c) => money(c.budget?.total), text: (c) => money(c.budget?.total), priority: 3 },
      currency: { csv: (c) => c.budget?.total.currency_code, csvOnly: true },
      budget_unit: { csv: (c) => budgetUnit.toFriendly(c.budget?.unit), priority: 3 },
    }),
    { header: 'AD GROUPS', name: 'ad_groups', csv: (c) => String(c.ad_groups?.length ?? 0), tableOnly: true, priority: 1 },
    { header: 'UPDATED', name: 'updated_at', csv: (c) => c.updated_at, table: (c) => day(c.updated_at), tableOnly: true, priority: 2 },
  ],
};

function criteria(g: AdGroup): Array<Record<string, unknown>> {
  return (g.targeting as { criteria?: Array<Record<string, unknown>> } | undefined)?.criteria ?? [];
}

function keywordCriterion(g: AdGroup): { keywords: string[]; match_type: string } | undefined {
  return criteria(g).find((c) => c.keyword_targeting)?.keyword_targeting as { keywords: string[]; match_type: string } | undefined;
}

function bid(g: AdGroup): CurrencyAmount | undefined {
  return (g.bidding as { manual?: { bid_amount: CurrencyAmount } }).manual?.bid_amount;
}

export const adGroupView: View<AdGroup> = {
  noun: 'ad groups',
  columns: listColumns<typeof AD_GROUP_FIELDS, AdGroup>('ad_groups', {
    ad_group_id: { csv: (g) => g.ad_group_id, kind: 'id' },
    campaign_id: { csv: (g) => g.campaign_id, csvOnly: true, kind: 'id' },
    name: { csv: (g) => g.name, kind: 'text' },
    ad_product: { csv: (g) => adProduct.toFriendly(g.ad_product), priority: 4 },
    status: { csv: (g) => adGroupStatus.toFriendly(g.configured_status) },
    budget: { csv: (g) => decimal(g.budget?.total), decimal: true, table: (g) => money(g.budget?.total), text: (g) => money(g.budget?.total), priority: 6 },
    currency: { csv: (g) => g.budget?.total.currency_code ?? bid(g)?.currency_code, csvOnly: true },
    budget_unit: { csv: (g) => budgetUnit.toFriendly(g.budget?.unit), csvOnly: true },
    bid: {
      csv: (g) => decimal(bid(g)),
      decimal: true,
      table: (g) => money(bid(g)) ?? (g.bidding && 'auto' in g.bidding ? 'auto' : undefined),
      text: (g) => money(bid(g)),
      priority: 5,
    },
    bidding: { csv: (g) => Object.keys(g.bidding ?? {})[0], csvOnly: true },
    keywords: { csv: (g) => keywordCriterion(g)?.keywords.join('|'), kind: 'text', priority: 3 },
    match_type: { csv: (g) => matchType.toFriendly(keywordCriterion(g)?.match_type), csvOnly: true },
    platform_one: { csv: (g) => (criteria(g).some((c) => c.platform_one) ? 'true' : ''), csvOnly: true },
    store_ids: { csv: (g) => g.subjects?.stores.store_ids.join('|'), csvOnly: true, kind: 'id' },
    start_time: { csv: (g) => g.schedule?.start_time, table: (g) => day(g.schedule?.start_time), priority: 2 },
    end_time: { csv: (g) => g.schedule?.end_time, table: (g) => day(g.schedule?.end_time), priority: 1 },
    daypart: { csv: (g) => formatDayparting((g as { dayparting_schedule?: unknown }).dayparting_schedule), csvOnly: true },
  }),
};

export const adView: View<Ad> = {
  noun: 'ads',
  columns: listColumns<typeof AD_FIELDS, Ad>('ads', {
    ad_id: { csv: (a) => a.ad_id, kind: 'id' },
    name: { csv: (a) => a.name, kind: 'text' },
    ad_group_id: { csv: (a) => a.ad_group_id, kind: 'id', priority: 2 },
    campaign_id: { csv: (a) => a.campaign_id, kind: 'id', priority: 1 },
  }),
};
