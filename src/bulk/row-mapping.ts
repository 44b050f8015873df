// One CSV row -> one API body item, validated by the same zod schemas the sandbox uses.
// Pure: a bad row becomes a RowProblem naming the column, never an exception.
import type { z } from 'zod';
import { CreateAdGroupInput, CreateAdInput, CreateCampaignInput, UpdateAdGroupInput, UpdateAdInput, UpdateCampaignInput } from '../schemas/ads.js';
import { adGroupStatus, adProduct, budgetUnit, campaignStatus, inputMatchType } from '../schemas/friendly.js';
import { formatPath } from '../schemas/issues.js';
import { shown, shownName } from '../schemas/input-limits.js';
import { decimalToE5, isAmountE5, MAX_AMOUNT_E5, MoneyFormatError } from '../schemas/money.js';
import { DOTTED_PATHS, type BulkMode, type BulkResource } from './csv-columns.js';
import { DaypartingError, parseDayparting } from './dayparting.js';

export interface RowProblem {
  field: string;
  message: string;
}

/**
 * The parts of nested objects a patch row changes. The API replaces a budget, schedule or
 * targeting whole, so these are merged into the current object before sending (merge.ts):
 * an amount keeps its unit, an end keeps its start, keywords keep the other criteria.
 */
export interface PartialChanges {
  /** A total without currency_code takes the resource's currency. */
  budget?: { unit?: string; total?: { amount_e5: string; currency_code?: string } };
  /** A bid without a currency: it takes the resource's. */
  bid?: { amount_e5: string };
  schedule?: { start_time?: string; end_time?: string };
  targeting?: { keyword?: { keywords: string[]; match_type: string }; platform_one?: boolean; operator?: string; negation?: boolean };
  /** Not changeable: a round-tripped CSV carries it; it must match the current one. */
  ad_product?: string;
}

export type MappedRow = { ok: true; item: Record<string, unknown>; campaignId?: string; partial?: PartialChanges } | { ok: false; problem: RowProblem };

class RowError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

const SCHEMAS: Record<BulkResource, Record<BulkMode, z.ZodType>> = {
  campaigns: { create: CreateCampaignInput, patch: UpdateCampaignInput },
  ad_groups: { create: CreateAdGroupInput, patch: UpdateAdGroupInput },
  ads: { create: CreateAdInput, patch: UpdateAdInput },
};

const ID_COLUMN: Record<BulkResource, string> = { campaigns: 'campaign_id', ad_groups: 'ad_group_id', ads: 'ad_id' };

/** Which column to blame for a schema problem at a body path. */
const COLUMN_FOR_PATH: Array<[RegExp, string]> = [
  [/^configured_status$/, 'status'],
  [/^budget\.total\.currency_code$/, 'currency'],
  [/^budget\.total\.amount_e5$/, 'budget'],
  [/^budget\.unit$/, 'budget_unit'],
  [/^budget$/, 'budget'],
  [/^bidding\.manual\.bid_amount/, 'bid'],
  [/^bidding/, 'bidding'],
  [/^schedule\.start_time$/, 'start_time'],
  [/^schedule\.end_time$/, 'end_time'],
  [/^schedule$/, 'start_time'],
  [/keywords/, 'keywords'],
  [/match_type/, 'match_type'],
  [/^ad_subjects/, 'store_ids'],
  [/^dayparting_schedule/, 'daypart'],
];

const split = (cell: string) =>
  cell
    .split('|')
    .map((s) => s.trim())
    .filter(Boolean);

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** An amount in its currency; a patch may leave the currency out (the resource's is used: merge.ts). */
function money(column: string, cell: string, currency: string | undefined, mode: BulkMode = 'create'): { amount_e5: string; currency_code?: string } {
  if (!currency && mode !== 'patch') throw new RowError('currency', `currency is required with ${column}`);
  try {
    return { amount_e5: decimalToE5(cell), ...(currency ? { currency_code: currencyCode(currency) } : {}) };
  } catch (error) {
    if (error instanceof MoneyFormatError) throw new RowError(column, error.message);
    throw error;
  }
}

/**
 * USD (usd is read as USD). Checked here, not only by the schema: a patch's budget is merged
 * into the current one before the schema sees it, so a bad code would first cost a read.
 */
function currencyCode(cell: string): string {
  if (!/^[A-Za-z]{3}$/.test(cell)) throw new RowError('currency', 'must be a three-letter ISO 4217 code, e.g. USD');
  return cell.toUpperCase();
}

function enumCell<T>(column: string, cell: string, map: { toApi: (s: string) => T | undefined; friendly: string[] }): T {
  const value = map.toApi(cell);
  if (value === undefined) throw new RowError(column, `${shown(cell)} is not one of ${map.friendly.join(', ')}`);
  return value;
}

function booleanCell(column: string, cell: string): boolean {
  const value = cell.trim().toLowerCase();
  if (['true', 'yes', '1'].includes(value)) return true;
  if (['false', 'no', '0'].includes(value)) return false;
  throw new RowError(column, `${shown(cell)} is not true or false`);
}

type Built = { item: Record<string, unknown>; campaignId?: string; partial?: PartialChanges };

/**
 * Maps the parts of a row one by one (id, status, budget, bidding, targeting, ...), each
 * on its own, so that every problem of the row is reported, not only the first.
 */
function buildItem(resource: BulkResource, mode: BulkMode, row: Record<string, string>, problems: RowProblem[]): Built {
  const cell = (name: string): string | undefined => (row[name] === undefined || row[name] === '' ? undefined : row[name]);
  const built: Built & { partial: PartialChanges } = { item: {}, partial: {} };
  const parts = [mapIdAndName, mapStatus, mapBudget, ...(resource === 'ad_groups' ? AD_GROUP_PARTS : []), mapDottedPaths];
  for (const map of parts) {
    try {
      map({ resource, mode, row, cell, ...built });
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      problems.push({ field: error.field, message: error.message });
    }
  }
  if (resource === 'ad_groups') built.campaignId = cell('campaign_id');
  const { item, campaignId, partial } = built;
  return { item, campaignId, ...(Object.keys(partial).length ? { partial } : {}) };
}

interface RowParts {
  resource: BulkResource;
  mode: BulkMode;
  row: Record<string, string>;
  cell: (name: string) => string | undefined;
  item: Record<string, unknown>;
  partial: PartialChanges;
}

function mapIdAndName({ resource, mode, row, cell, item }: RowParts): void {
  if (cell('name') !== undefined) item.name = row.name;
  const idColumn = ID_COLUMN[resource];
  if (mode !== 'patch') return;
  const id = cell(idColumn);
  if (!id) throw new RowError(idColumn, `${idColumn} is required`);
  item[idColumn] = id;
}

function mapStatus({ resource, row, cell, item }: RowParts): void {
  const statusMap = resource === 'campaigns' ? campaignStatus : adGroupStatus;
  if (cell('status') !== undefined) item.configured_status = enumCell('status', row.status!, statusMap);
}

function mapBudget({ mode, row, cell, item, partial }: RowParts): void {
  const currency = cell('currency');
  if (cell('budget') !== undefined && cell('budget_e5') !== undefined) throw new RowError('budget_e5', 'give budget or budget_e5, not both');
  let total: { amount_e5: string; currency_code?: string } | undefined;
  if (cell('budget') !== undefined) total = money('budget', row.budget!, currency, mode);
  if (cell('budget_e5') !== undefined) {
    if (!/^\d+$/.test(row.budget_e5!)) throw new RowError('budget_e5', `${shown(row.budget_e5!)} is not a whole number of 1/100000 units`);
    if (!isAmountE5(row.budget_e5!)) throw new RowError('budget_e5', `${shown(row.budget_e5!)} is more than ${MAX_AMOUNT_E5}, the largest amount_e5`);
    if (!currency && mode !== 'patch') throw new RowError('currency', 'currency is required with budget_e5');
    total = { amount_e5: row.budget_e5!.replace(/^0+(?=\d)/, ''), ...(currency ? { currency_code: currencyCode(currency) } : {}) };
  }
  const unitCell = cell('budget_unit');
  if (mode === 'patch') {
    // Only what the row names changes: an amount keeps its unit, a unit keeps its amount.
    if (total || unitCell !== undefined)
      partial.budget = { ...(unitCell !== undefined ? { unit: enumCell('budget_unit', unitCell, budgetUnit) } : {}), ...(total ? { total } : {}) };
  } else if (total) {
    if (!unitCell) throw new RowError('budget_unit', 'budget_unit is required with budget (daily, weekly or fixed)');
    item.budget = { unit: enumCell('budget_unit', unitCell, budgetUnit), total };
  } else if (unitCell !== undefined) {
    throw new RowError('budget', 'budget_unit needs budget (or budget_e5) and currency');
  }
}

function mapAdProduct({ mode, row, cell, item, partial }: RowParts): void {
  if (cell('ad_product') !== undefined) {
    const product = enumCell('ad_product', row.ad_product!, adProduct);
    if (mode === 'patch') partial.ad_product = product;
    else item.ad_product = product;
  } else if (mode === 'create') item.ad_product = 'SPONSORED_LISTING';
}

function mapBidding({ mode, row, cell, item, partial }: RowParts): void {
  const bidding = cell('bidding')?.toLowerCase();
  if (cell('bid') !== undefined) {
    if (bidding !== undefined && bidding !== 'manual') throw new RowError('bidding', `bidding ${shown(row.bidding!)} cannot be used with a bid`);
    const bid = money('bid', row.bid!, cell('currency'), mode);
    if (bid.currency_code) item.bidding = { manual: { bid_amount: bid } };
    else partial.bid = bid;
  } else if (bidding === 'auto') {
    item.bidding = { auto: {} };
  } else if (mode === 'patch' && (bidding === 'goal_based' || bidding === 'manual')) {
    // A listed row names its bidding kind; without a bid (or ROAS goal column) it stays as it is.
  } else if (bidding !== undefined && !(bidding === 'goal_based' && cell('bidding.goal_based.roas_goal') !== undefined)) {
    throw new RowError('bidding', bidding === 'manual' ? 'manual bidding needs a bid' : `${shown(row.bidding!)} is not auto, manual or goal_based`);
  } else if (mode === 'create' && bidding === undefined) {
    item.bidding = { auto: {} };
  }
}

function mapTargeting({ mode, row, cell, item, partial }: RowParts): void {
  const keyword =
    cell('keywords') !== undefined
      ? { keywords: split(row.keywords!), match_type: enumCell('match_type', cell('match_type') ?? 'exact', inputMatchType) }
      : undefined;
  if (!keyword && cell('match_type') !== undefined && mode === 'create') throw new RowError('match_type', 'match_type needs keywords');
  const platformOne = cell('platform_one') !== undefined ? booleanCell('platform_one', row.platform_one!) : undefined;
  if (mode === 'patch') {
    // Keywords replace only the keyword criterion; platform_one adds or removes only itself.
    if (keyword || platformOne !== undefined)
      partial.targeting = { ...partial.targeting, ...(keyword ? { keyword } : {}), ...(platformOne !== undefined ? { platform_one: platformOne } : {}) };
    return;
  }
  const criteria: unknown[] = [];
  if (keyword) criteria.push({ keyword_targeting: keyword });
  if (platformOne) criteria.push({ platform_one: {} });
  if (criteria.length) item.targeting = { negation: false, operator: 'AND', criteria };
}

function mapStores({ row, cell, item }: RowParts): void {
  if (cell('store_ids') !== undefined) item.ad_subjects = { stores: { store_ids: split(row.store_ids!) } };
}

function mapDayparting({ row, cell, item }: RowParts): void {
  if (cell('daypart') === undefined) return;
  try {
    item.dayparting_schedule = parseDayparting(row.daypart!.split('|'));
  } catch (error) {
    if (error instanceof DaypartingError) throw new RowError('daypart', error.message);
    throw error;
  }
}

function mapSchedule({ mode, cell, item, partial }: RowParts): void {
  const start = cell('start_time');
  const end = cell('end_time');
  if (mode === 'patch') {
    // An end keeps the start, a start keeps the end.
    if (start !== undefined || end !== undefined)
      partial.schedule = { ...(start !== undefined ? { start_time: start } : {}), ...(end !== undefined ? { end_time: end } : {}) };
  } else if (start !== undefined || end !== undefined) {
    if (start === undefined) throw new RowError('start_time', 'start_time is required with end_time');
    item.schedule = { start_time: start, ...(end !== undefined ? { end_time: end } : {}) };
  } else {
    throw new RowError('start_time', 'start_time is required to create an ad group');
  }
}

const AD_GROUP_PARTS = [mapAdProduct, mapBidding, mapTargeting, mapStores, mapDayparting, mapSchedule];

/** Dotted API paths set (or override) single fields. */
function mapDottedPaths({ resource, mode, cell, item, partial }: RowParts): void {
  for (const [path, type] of Object.entries(DOTTED_PATHS[resource])) {
    const value = cell(path);
    if (value === undefined) continue;
    let typed: unknown = value;
    if (type === 'boolean') typed = booleanCell(path, value);
    if (type === 'number') {
      typed = Number(value);
      if (!Number.isFinite(typed)) throw new RowError(path, `${shown(value)} is not a number`);
    }
    if (path === 'ad_subjects.stores.store_ids') typed = split(value);
    if (mode === 'patch' && (path === 'targeting.operator' || path === 'targeting.negation')) {
      partial.targeting = { ...partial.targeting, [path.slice('targeting.'.length)]: typed };
      continue;
    }
    if (path.startsWith('targeting.')) item.targeting ??= { negation: false, operator: 'AND', criteria: [] };
    setPath(item, path, typed);
  }
}

/** Maps and validates one row; `row` holds the cells by column name. */
export function mapRow(resource: BulkResource, mode: BulkMode, row: Record<string, string>): MappedRow {
  const problems: RowProblem[] = [];
  const built = buildItem(resource, mode, row, problems);
  if (problems.length) return { ok: false, problem: joinProblems(problems) };
  const mapped = validateItem(resource, mode, built.item, built.campaignId, 'columns');
  return mapped.ok && built.partial ? { ...mapped, partial: built.partial } : mapped;
}

/** One problem standing for several: the first field leads, every message follows on one line. */
function joinProblems([first, ...others]: RowProblem[]): RowProblem {
  return { field: first!.field, message: [first!.message, ...others.map(describeProblem)].join('; ') };
}

/** "status: ..." — or just "unknown field x" when the message names the field itself. */
export function describeProblem(problem: RowProblem): string {
  return problem.message.startsWith('unknown field') ? problem.message : `${problem.field}: ${problem.message}`;
}

/**
 * Validates an API body item, naming what is at fault: the CSV column for rows built from
 * CSV, the API path (budget.total.amount_e5) for JSON items.
 */
export function validateItem(resource: BulkResource, mode: BulkMode, item: unknown, campaignId?: string, names: 'columns' | 'paths' = 'paths'): MappedRow {
  const result = SCHEMAS[resource][mode].safeParse(item);
  if (result.success) return { ok: true, item: result.data as Record<string, unknown>, campaignId };
  // Every problem of the item, not only the first: one line, the first field leading.
  const problems = result.error.issues.map((issue): RowProblem => {
    const path = formatPath(issue.path);
    if (issue.code === 'unrecognized_keys') {
      return {
        field: shownName(formatPath([...issue.path, issue.keys[0]!])),
        message: `unknown field ${issue.keys.map((k) => shownName(formatPath([...issue.path, k]))).join(', ')}`,
      };
    }
    const column = names === 'paths' ? path || 'item' : (COLUMN_FOR_PATH.find(([pattern]) => pattern.test(path))?.[1] ?? (path || 'row'));
    return { field: column, message: issue.message };
  });
  return { ok: false, problem: joinProblems(problems) };
}
