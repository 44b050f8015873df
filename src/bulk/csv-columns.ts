// The CSV columns `--from-csv` reads, per resource. The same names are what
// `list -o csv` writes, so `list | awk | patch --from-csv -` round-trips.

export type BulkResource = 'campaigns' | 'ad_groups' | 'ads';
export type BulkMode = 'create' | 'patch';

export interface ColumnDoc {
  name: string;
  help: string;
}

const money: ColumnDoc[] = [
  { name: 'budget', help: 'budget as a decimal (exact, x 10^5 = amount_e5); needs currency and budget_unit' },
  { name: 'budget_e5', help: 'budget as the raw amount_e5 integer (instead of budget)' },
  { name: 'currency', help: 'ISO 4217 currency of budget and bid, e.g. USD' },
  { name: 'budget_unit', help: 'daily, weekly or fixed (or BUDGET_UNIT_*)' },
];

export const CAMPAIGN_COLUMNS: ColumnDoc[] = [
  { name: 'campaign_id', help: 'the campaign to change (patch; required there)' },
  { name: 'name', help: 'campaign name' },
  { name: 'status', help: 'active or paused (or CAMPAIGN_CONFIGURED_STATUS_*)' },
  ...money,
];

export const AD_GROUP_COLUMNS: ColumnDoc[] = [
  { name: 'ad_group_id', help: 'the ad group to change (patch; required there)' },
  { name: 'campaign_id', help: "the ad group's campaign (default: --campaign)" },
  { name: 'name', help: 'ad group name' },
  { name: 'ad_product', help: 'listing or search (create; default listing)' },
  { name: 'status', help: 'active or paused (or AD_GROUP_CONFIGURED_STATUS_*)' },
  ...money,
  { name: 'bid', help: 'manual bid as a decimal in currency (sets manual bidding)' },
  { name: 'bidding', help: 'auto, or manual (with bid)' },
  { name: 'keywords', help: 'keyword targeting, separated by |' },
  { name: 'match_type', help: 'exact or broad' },
  { name: 'platform_one', help: 'true to target Platform One members' },
  { name: 'store_ids', help: 'store ids separated by |' },
  { name: 'start_time', help: 'schedule start, ISO 8601' },
  { name: 'end_time', help: 'schedule end, ISO 8601' },
  { name: 'daypart', help: 'dayparting: DAYS=HH:MM-HH:MM entries separated by |, e.g. mon-fri=11:00-14:00|sat=10:00-24:00' },
];

export const AD_COLUMNS: ColumnDoc[] = [
  { name: 'ad_id', help: 'the ad to change (patch; required there)' },
  { name: 'name', help: 'ad name' },
  { name: 'ad_group_id', help: "the ad's ad group, as `ads ads list -o csv` writes it (the ad group is --ad-group)" },
  { name: 'campaign_id', help: "the ad's campaign, as `ads ads list -o csv` writes it (the campaign is --campaign)" },
];

/** Dotted API paths accepted as columns too, with the type their cells hold. */
export const DOTTED_PATHS: Record<BulkResource, Record<string, 'string' | 'boolean' | 'number'>> = {
  campaigns: {
    'budget.unit': 'string',
    'budget.total.amount_e5': 'string',
    'budget.total.currency_code': 'string',
    configured_status: 'string',
  },
  ads: {},
  ad_groups: {
    'budget.unit': 'string',
    'budget.total.amount_e5': 'string',
    'budget.total.currency_code': 'string',
    configured_status: 'string',
    'bidding.manual.bid_amount.amount_e5': 'string',
    'bidding.manual.bid_amount.currency_code': 'string',
    'bidding.goal_based.roas_goal': 'number',
    'schedule.start_time': 'string',
    'schedule.end_time': 'string',
    'targeting.operator': 'string',
    'targeting.negation': 'boolean',
    'ad_subjects.stores.store_ids': 'string',
  },
};

export function columnsFor(resource: BulkResource): ColumnDoc[] {
  return resource === 'campaigns' ? CAMPAIGN_COLUMNS : resource === 'ads' ? AD_COLUMNS : AD_GROUP_COLUMNS;
}

/** The header check: every column must be known (never silently dropped). */
export function unknownColumns(resource: BulkResource, header: string[]): string[] {
  const known = new Set([...columnsFor(resource).map((c) => c.name), ...Object.keys(DOTTED_PATHS[resource])]);
  return header.filter((name) => !known.has(name));
}

/** The "CSV columns" section of --help. */
export function columnsHelp(resource: BulkResource): string {
  const docs = columnsFor(resource);
  const width = Math.max(...docs.map((d) => d.name.length));
  return [
    'CSV columns (--from-csv; header row required; an empty cell leaves the field unchanged):',
    ...docs.map((d) => `  ${d.name.padEnd(width)}  ${d.help}`),
    `  Dotted API paths are accepted too: ${Object.keys(DOTTED_PATHS[resource]).join(', ')}.`,
  ].join('\n');
}
