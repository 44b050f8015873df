// Flags -> a one-row record with the CSV's column names, so that flags, --from-csv and
// --from-json rows go through one mapping (src/bulk/row-mapping.ts) to the request body:
// what a flag sets is exactly what the same CSV cell sets. Problems name the flag.

export interface MoneyFlags {
  budget?: string;
  budgetE5?: string;
  currency?: string;
  budgetUnit?: string;
}

export interface CampaignFlags extends MoneyFlags {
  name?: string;
  status?: string;
  campaignId?: string;
}

export interface AdGroupFlags extends MoneyFlags {
  name?: string;
  status?: string;
  campaign?: string;
  adGroupId?: string;
  adProduct?: string;
  bid?: string;
  autoBid?: boolean;
  start?: string;
  end?: string;
  keywords?: string[];
  matchType?: string;
  platformOne?: boolean;
  targetOperator?: string;
  negateTargeting?: boolean;
  storeIds?: string[];
  daypart?: string[];
}

/** The column each flag fills, and so the flag to name for a problem in that column. */
const FLAG_OF_COLUMN: Record<string, string> = {
  name: '--name',
  status: '--status',
  budget: '--budget',
  budget_e5: '--budget-e5',
  currency: '--currency',
  budget_unit: '--budget-unit',
  bid: '--bid',
  bidding: '--auto-bid',
  start_time: '--start',
  end_time: '--end',
  keywords: '--keywords',
  match_type: '--match-type',
  platform_one: '--platform-one',
  'targeting.operator': '--target-operator',
  'targeting.negation': '--negate-targeting',
  store_ids: '--store-ids',
  daypart: '--daypart',
  ad_product: '--ad-product',
  campaign_id: '--campaign-id',
  ad_group_id: '--ad-group-id',
  ad_id: '--ad-id',
};

export function flagOfColumn(column: string): string {
  return FLAG_OF_COLUMN[column] ?? column;
}

/** A row problem in the words of flags: `--currency is required with --budget`. */
export function flagProblem(column: string, message: string): string {
  const words = message.replace(/\b[a-z_]+(?:\.[a-z_]+)?\b/g, (word) => FLAG_OF_COLUMN[word] ?? word);
  const flag = flagOfColumn(column);
  return words.startsWith(flag) ? words : `${flag}: ${words}`;
}

/** The record a CSV row with these cells would be; only given flags fill cells. */
export function flagsRow(flags: AdGroupFlags & CampaignFlags & { adId?: string }, idColumn?: string, id?: string): Record<string, string> {
  const row: Record<string, string> = {};
  const set = (column: string, value: string | undefined) => {
    if (value !== undefined) row[column] = value;
  };
  if (idColumn) set(idColumn, id);
  set('name', flags.name);
  set('status', flags.status);
  set('budget', flags.budget);
  set('budget_e5', flags.budgetE5);
  set('currency', flags.currency);
  set('budget_unit', flags.budgetUnit);
  set('ad_product', flags.adProduct);
  set('bid', flags.bid);
  if (flags.autoBid) set('bidding', 'auto');
  set('start_time', flags.start);
  set('end_time', flags.end);
  set('keywords', flags.keywords?.join('|'));
  set('match_type', flags.matchType);
  // --platform-one adds the criterion, --no-platform-one removes it (commander: true/false).
  if (flags.platformOne !== undefined) set('platform_one', String(flags.platformOne));
  set('targeting.operator', flags.targetOperator);
  if (flags.negateTargeting) set('targeting.negation', 'true');
  set('store_ids', flags.storeIds?.join('|'));
  set('daypart', flags.daypart?.join('|'));
  return row;
}
