// Flags -> API body items for ads create/patch. Pure: every problem is a UsageError that
// names the flag, raised before anything is sent.
import type { z } from 'zod';
import { UsageError } from '../../errors.js';
import { adGroupStatus, adProduct, budgetUnit, campaignStatus, matchType } from '../../schemas/friendly.js';
import { decimalToE5, isAmountE5, MoneyFormatError } from '../../schemas/money.js';
import type { BudgetInput, CurrencyAmount } from '../../schemas/ads.js';
import { formatPath } from '../../schemas/issues.js';

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

/** Which flag sets which body field, for error messages. */
const FLAG_FOR_FIELD: Array<[RegExp, string]> = [
  [/^name$/, '--name'],
  [/^configured_status$/, '--status'],
  [/^budget\.total\.currency_code$/, '--currency'],
  [/^budget\.total\.amount_e5$/, '--budget'],
  [/^budget\.unit$/, '--budget-unit'],
  [/^bidding\.manual\.bid_amount\.currency_code$/, '--currency'],
  [/^bidding/, '--bid'],
  [/^schedule\.start_time$/, '--start'],
  [/^schedule\.end_time$/, '--end'],
  [/^targeting\.criteria.*keywords/, '--keywords'],
  [/^targeting\.criteria.*match_type/, '--match-type'],
  [/^ad_subjects/, '--store-ids'],
  [/^dayparting_schedule/, '--daypart'],
  [/^campaign_id$/, '--campaign-id'],
  [/^ad_group_id$/, '--ad-group-id'],
];

/** Validates a body built from flags, naming the flag of the first problem. */
export function validateFlags<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const field = formatPath(issue.path);
  const flag = FLAG_FOR_FIELD.find(([pattern]) => pattern.test(field))?.[1];
  throw new UsageError(`${flag ?? field}: ${issue.message}`);
}

function money(flag: string, decimal: string, currency: string | undefined): CurrencyAmount {
  if (!currency) throw new UsageError(`--currency is required with ${flag}`);
  try {
    return { amount_e5: decimalToE5(decimal), currency_code: currency.toUpperCase() };
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new UsageError(`${flag}: ${error.message}`);
    throw error;
  }
}

/** --budget/--budget-e5 with --currency and --budget-unit; undefined when no budget flag is given. */
export function budgetFromFlags(flags: MoneyFlags): BudgetInput | undefined {
  if (flags.budget !== undefined && flags.budgetE5 !== undefined) throw new UsageError('--budget and --budget-e5 cannot be used together');
  let total: CurrencyAmount;
  if (flags.budget !== undefined) {
    total = money('--budget', flags.budget, flags.currency);
  } else if (flags.budgetE5 !== undefined) {
    if (!isAmountE5(flags.budgetE5)) throw new UsageError(`--budget-e5: "${flags.budgetE5}" is not a whole number of 1/100000 units`);
    if (!flags.currency) throw new UsageError('--currency is required with --budget-e5');
    total = { amount_e5: flags.budgetE5.replace(/^0+(?=\d)/, ''), currency_code: flags.currency.toUpperCase() };
  } else {
    return undefined;
  }
  const unit = budgetUnit.toApi(flags.budgetUnit ?? 'daily');
  if (!unit) throw new UsageError(`--budget-unit: "${flags.budgetUnit}" is not one of ${budgetUnit.friendly.join(', ')}`);
  return { unit, total };
}

export function campaignBody(flags: CampaignFlags, mode: 'create' | 'patch'): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (mode === 'patch') body.campaign_id = flags.campaignId;
  if (flags.name !== undefined) body.name = flags.name;
  if (flags.status !== undefined) body.configured_status = campaignStatus.toApi(flags.status) ?? flags.status;
  else if (mode === 'create') body.configured_status = 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE';
  const budget = budgetFromFlags(flags);
  if (budget) body.budget = budget;
  return body;
}

const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

function parseTime(text: string, flag: string): { hour: number; minute: number } {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) throw new UsageError(`${flag}: "${text}" is not a time like 06:00`);
  return { hour: Number(match[1]), minute: Number(match[2]) };
}

function parseDays(text: string, flag: string): number[] {
  const days = new Set<number>();
  for (const part of text.toLowerCase().split(/[,+]/)) {
    const [from, to] = part.split('-').map((d) => DAYS.indexOf(d.trim().slice(0, 3)));
    if (from === undefined || from < 0 || (to !== undefined && to < 0)) throw new UsageError(`${flag}: "${part}" is not a day or day range (mon..sun, e.g. mon-fri)`);
    for (let d = from; d <= (to ?? from); d++) days.add(d);
  }
  return [...days];
}

/** `mon-fri=06:00-22:00` entries -> the 7-day dayparting schedule, Monday first. */
export function daypartingFromFlags(entries: string[]): { dayparting_day_schedule: Array<{ intervals: unknown[] }> } {
  const week = DAYS.map(() => ({ intervals: [] as unknown[] }));
  for (const entry of entries) {
    const [days, range] = entry.split('=');
    const [start, end] = (range ?? '').split('-');
    if (!days || !start || !end) throw new UsageError(`--daypart: "${entry}" is not DAYS=HH:MM-HH:MM (e.g. mon-fri=06:00-22:00)`);
    const interval = { start_time: parseTime(start, '--daypart'), end_time: parseTime(end, '--daypart') };
    for (const day of parseDays(days, '--daypart')) week[day]!.intervals.push(interval);
  }
  return { dayparting_day_schedule: week };
}

export function adGroupBody(flags: AdGroupFlags, mode: 'create' | 'patch', now: Date): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (mode === 'patch') body.ad_group_id = flags.adGroupId;
  if (flags.name !== undefined) body.name = flags.name;
  if (mode === 'create') body.ad_product = adProduct.toApi(flags.adProduct ?? 'listing') ?? flags.adProduct;
  if (flags.status !== undefined) body.configured_status = adGroupStatus.toApi(flags.status) ?? flags.status;
  else if (mode === 'create') body.configured_status = 'AD_GROUP_CONFIGURED_STATUS_ACTIVE';
  const budget = budgetFromFlags(flags);
  if (budget) body.budget = budget;
  if (flags.start !== undefined || flags.end !== undefined || mode === 'create') {
    body.schedule = { start_time: flags.start ?? now.toISOString().replace(/\.\d{3}Z$/, 'Z'), ...(flags.end !== undefined ? { end_time: flags.end } : {}) };
  }
  if (flags.bid !== undefined && flags.autoBid) throw new UsageError('--bid and --auto-bid cannot be used together');
  if (flags.bid !== undefined) body.bidding = { manual: { bid_amount: money('--bid', flags.bid, flags.currency) } };
  else if (flags.autoBid || mode === 'create') body.bidding = { auto: {} };
  const criteria: unknown[] = [];
  if (flags.keywords?.length) {
    const type = matchType.toApi(flags.matchType ?? 'exact');
    criteria.push({ keyword_targeting: { keywords: flags.keywords, match_type: type } });
  } else if (flags.matchType !== undefined) {
    throw new UsageError('--match-type needs --keywords');
  }
  if (flags.platformOne) criteria.push({ platform_one: {} });
  if (criteria.length) {
    body.targeting = { negation: Boolean(flags.negateTargeting), operator: flags.targetOperator ?? 'AND', criteria };
  } else if (flags.negateTargeting || flags.targetOperator) {
    throw new UsageError('--negate-targeting and --target-operator need --keywords or --platform-one');
  }
  if (flags.storeIds?.length) body.ad_subjects = { stores: { store_ids: flags.storeIds } };
  else if (mode === 'create') throw new UsageError('--store-ids is required: an ad group promotes at least one store');
  if (flags.daypart?.length) body.dayparting_schedule = daypartingFromFlags(flags.daypart);
  return body;
}
