// One CSV row -> one API body item, validated by the same zod schemas the sandbox uses.
// Pure: a bad row becomes a RowProblem naming the column, never an exception.
import type { z } from 'zod';
import { CreateAdGroupInput, CreateAdInput, CreateCampaignInput, UpdateAdGroupInput, UpdateAdInput, UpdateCampaignInput } from '../../schemas/ads.js';
import { formatPath } from '../../schemas/issues.js';
import { withoutNulls } from '../../schemas/json-nulls.js';
import { shown, shownName } from '../../schemas/input-limits.js';
import { ADS_FIELDS, CLEAR_CELL, fieldsInHelpOrder, type AdsField, type ClearableField, type MappingPart, type ParserName } from '../../schemas/ads-fields.js';
import { DECIMAL_PARSERS, decimalPointOf, FIELD_PARSERS, FieldParseError, looksDecimalComma, splitCell } from '../../schemas/ads-field-parsers.js';
import type { BulkMode, BulkResource } from './csv-columns.js';

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

/** The column of the item's own id. */
function idColumn(resource: BulkResource): string {
  return (ADS_FIELDS[resource] as readonly AdsField[]).find((f) => f.role === 'id')!.column;
}

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

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    if (typeof node[key] !== 'object' || node[key] === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

/** A cell parsed by the table's parser, a problem named by its column. */
function parse(column: string, parser: ParserName, cell: string): unknown {
  try {
    return FIELD_PARSERS[parser](cell);
  } catch (error) {
    if (error instanceof FieldParseError) throw new RowError(column, error.message);
    throw error;
  }
}

/** An amount in its currency; a patch may leave the currency out (the resource's is used: merge.ts). */
function money(column: string, cell: string, currency: string | undefined, mode: BulkMode = 'create'): { amount_e5: string; currency_code?: string } {
  if (!currency && mode !== 'patch') throw new RowError('currency', `currency is required with ${column}`);
  const amount = parse(column, 'decimalAmount', cell) as string;
  return { amount_e5: amount, ...(currency ? { currency_code: parse('currency', 'currency', currency) as string } : {}) };
}

type Built = { item: Record<string, unknown>; campaignId?: string; partial?: PartialChanges };

/**
 * Maps the parts of a row one by one (id, status, budget, bidding, targeting, ...), each
 * on its own, so that every problem of the row is reported, not only the first. The parts
 * run are those the resource's field table names, in PARTS' order.
 */
function buildItem(resource: BulkResource, mode: BulkMode, row: Record<string, string>, problems: RowProblem[]): Built {
  const cleared = clearedFields(resource, mode, row, problems);
  // A cell that clears its field (`[]`) is not a value for the parts to map.
  const clears = clearsOf(resource);
  const cell = (name: string): string | undefined =>
    row[name] === undefined || row[name] === '' || (row[name] === CLEAR_CELL && clears.has(name)) ? undefined : row[name];
  const built: Built & { partial: PartialChanges } = { item: {}, partial: {} };
  problems.push(...givenTwice(resource, cell));
  // One view of the row for every part (each fills `item` and `partial` in place).
  const parts: RowParts = { resource, mode, row, cell, item: built.item, partial: built.partial };
  for (const map of partsOf(resource)) {
    try {
      map(parts);
    } catch (error) {
      if (!(error instanceof RowError)) throw error;
      problems.push({ field: error.field, message: error.message });
    }
  }
  for (const field of cleared) built.item[field] = {};
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

function mapName({ row, cell, item }: RowParts): void {
  if (cell('name') !== undefined) item.name = row.name;
}

function mapId({ resource, mode, cell, item }: RowParts): void {
  const column = idColumn(resource);
  if (mode !== 'patch') return;
  const id = cell(column);
  if (!id) throw new RowError(column, `${column} is required`);
  item[column] = id;
}

function mapStatus({ resource, mode, row, cell, item }: RowParts): void {
  if (cell('status') !== undefined) item.configured_status = parse('status', resource === 'campaigns' ? 'campaignStatus' : 'adGroupStatus', row.status!);
  // The API needs one to create (the flags default to active); a CSV row says which itself.
  else if (mode === 'create' && cell('configured_status') === undefined)
    throw new RowError('status', `status is required to create ${resource === 'campaigns' ? 'a campaign' : 'an ad group'}: active or paused`);
}

function mapBudget({ mode, row, cell, item, partial }: RowParts): void {
  const currency = cell('currency');
  if (cell('budget') !== undefined && cell('budget_e5') !== undefined) throw new RowError('budget_e5', 'give budget or budget_e5, not both');
  let total: { amount_e5: string; currency_code?: string } | undefined;
  if (cell('budget') !== undefined) total = money('budget', row.budget!, currency, mode);
  if (cell('budget_e5') !== undefined) {
    const amount = parse('budget_e5', 'amountE5', row.budget_e5!) as string;
    if (!currency && mode !== 'patch') throw new RowError('currency', 'currency is required with budget_e5');
    total = { amount_e5: amount, ...(currency ? { currency_code: parse('currency', 'currency', currency) as string } : {}) };
  }
  const unitCell = cell('budget_unit');
  if (mode === 'patch') {
    // Only what the row names changes: an amount keeps its unit, a unit keeps its amount.
    if (total || unitCell !== undefined)
      partial.budget = { ...(unitCell !== undefined ? { unit: parse('budget_unit', 'budgetUnit', unitCell) as string } : {}), ...(total ? { total } : {}) };
  } else if (total) {
    if (!unitCell) throw new RowError('budget_unit', 'budget_unit is required with budget (daily, weekly or fixed)');
    item.budget = { unit: parse('budget_unit', 'budgetUnit', unitCell), total };
  } else if (unitCell !== undefined) {
    throw new RowError('budget', 'budget_unit needs budget (or budget_e5) and currency');
  }
}

function mapAdProduct({ mode, row, cell, item, partial }: RowParts): void {
  if (cell('ad_product') !== undefined) {
    const product = parse('ad_product', 'adProduct', row.ad_product!) as string;
    if (mode === 'patch') partial.ad_product = product;
    else item.ad_product = product;
  } else if (mode === 'create') item.ad_product = 'SPONSORED_LISTING';
}

function mapBidding({ mode, row, cell, item, partial }: RowParts): void {
  const bidding = cell('bidding')?.toLowerCase();
  // A ROAS goal is goal-based bidding: the create's default (auto) is not added to it.
  const goal = cell('bidding.goal_based.roas_goal') !== undefined;
  if (goal && (cell('bid') !== undefined || bidding === 'auto' || bidding === 'manual'))
    throw new RowError('bidding.goal_based.roas_goal', 'cannot be used with bid or bidding (a ROAS goal is goal-based)');
  if (cell('bid') !== undefined) {
    if (bidding !== undefined && bidding !== 'manual') throw new RowError('bidding', `bidding ${shown(row.bidding!)} cannot be used with a bid`);
    const bid = money('bid', row.bid!, cell('currency'), mode);
    if (bid.currency_code) item.bidding = { manual: { bid_amount: bid } };
    else partial.bid = bid;
  } else if (bidding === 'auto') {
    item.bidding = { auto: {} };
  } else if (mode === 'patch' && (bidding === 'goal_based' || bidding === 'manual')) {
    // A listed row names its bidding kind; without a bid (or ROAS goal column) it stays as it is.
  } else if (bidding !== undefined && !(bidding === 'goal_based' && goal)) {
    throw new RowError('bidding', bidding === 'manual' ? 'manual bidding needs a bid' : `${shown(row.bidding!)} is not auto, manual or goal_based`);
  } else if (mode === 'create' && bidding === undefined && !goal) {
    item.bidding = { auto: {} };
  }
}

function mapTargeting({ mode, row, cell, item, partial }: RowParts): void {
  const keyword =
    cell('keywords') !== undefined
      ? { keywords: splitCell(row.keywords!), match_type: parse('match_type', 'matchType', cell('match_type') ?? 'exact') as string }
      : undefined;
  if (!keyword && cell('match_type') !== undefined && mode === 'create') throw new RowError('match_type', 'match_type needs keywords');
  const platformOne = cell('platform_one') !== undefined ? (parse('platform_one', 'presence', row.platform_one!) as boolean) : undefined;
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
  if (cell('store_ids') !== undefined) item.ad_subjects = { stores: { store_ids: parse('store_ids', 'list', row.store_ids!) } };
}

function mapDayparting({ row, cell, item }: RowParts): void {
  if (cell('daypart') !== undefined) item.dayparting_schedule = parse('daypart', 'dayparting', row.daypart!);
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

/**
 * Fields set on their own at their API path (the dotted columns): parsed by the table's
 * parser; in a patch a targeting setting (merge rule `sibling`) is merged into the current
 * targeting (merge.ts), since the API replaces targeting whole.
 */
function mapPaths({ resource, mode, cell, item, partial }: RowParts): void {
  for (const field of pathFields(resource)) {
    const value = cell(field.column);
    if (value === undefined) continue;
    const typed = parse(field.column, field.parser, value);
    const path = field.paths[0]!;
    // A patch's budget by its API paths changes only what they name, as budget_e5 and budget_unit do (merge.ts).
    if (mode === 'patch' && patchBudgetPath(partial, path, String(typed))) continue;
    if (mode === 'patch' && field.merge === 'sibling' && path.startsWith('targeting.')) {
      partial.targeting = { ...partial.targeting, [path.slice('targeting.'.length)]: typed };
      continue;
    }
    if (path.startsWith('targeting.')) item.targeting ??= { negation: false, operator: 'AND', criteria: [] };
    setPath(item, path, typed);
  }
}

/** Puts a patch's budget path into its partial budget; false for a path that is not one (or a currency with no amount). */
function patchBudgetPath(partial: PartialChanges, path: string, value: string): boolean {
  if (path === 'budget.unit') partial.budget = { ...partial.budget, unit: value };
  else if (path === 'budget.total.amount_e5') partial.budget = { ...partial.budget, total: { ...partial.budget?.total, amount_e5: value } };
  else if (path === 'budget.total.currency_code' && partial.budget?.total) partial.budget.total.currency_code = value;
  else return false;
  return true;
}

const CLEARS_NOTHING: ReadonlySet<ClearableField> = new Set();

/** The field each column clears with a `[]` cell (ads-fields.ts `clears`); worked out once per resource. */
const CLEARS_OF: Partial<Record<BulkResource, ReadonlyMap<string, ClearableField>>> = {};
function clearsOf(resource: BulkResource): ReadonlyMap<string, ClearableField> {
  return (CLEARS_OF[resource] ??= new Map((ADS_FIELDS[resource] as readonly AdsField[]).flatMap((f) => (f.clears ? [[f.column, f.clears] as const] : []))));
}

/**
 * The fields a row clears: a `[]` cell in a column of a clearable field (sent as `{}`, which
 * the API reads as "remove"). Only a patch clears, and a row that clears a field sets none
 * of its other columns (the API removes the whole object): both are problems of the row.
 */
function clearedFields(resource: BulkResource, mode: BulkMode, row: Record<string, string>, problems: RowProblem[]): ReadonlySet<ClearableField> {
  const columns = clearsOf(resource);
  // Most rows clear nothing: no set of their own.
  let clearing = false;
  for (const column of columns.keys()) clearing ||= row[column] === CLEAR_CELL;
  if (!clearing) return CLEARS_NOTHING;
  const cleared = new Set<ClearableField>();
  for (const [column, field] of columns) {
    if (row[column] !== CLEAR_CELL) continue;
    if (mode !== 'patch') problems.push({ field: column, message: `${CLEAR_CELL} removes a field, which only a patch can do (leave the cell empty)` });
    else cleared.add(field);
  }
  for (const [column, field] of columns) {
    const value = row[column];
    if (cleared.has(field) && value !== undefined && value !== '' && value !== CLEAR_CELL)
      problems.push({ field: column, message: `cannot be set in a row that clears ${field} (${CLEAR_CELL}): leave it empty` });
  }
  return cleared;
}

/** The mapping parts a resource's table names, in PARTS order; worked out once per resource, not for every row. */
const PARTS_OF: Partial<Record<BulkResource, ReadonlyArray<(parts: RowParts) => void>>> = {};
function partsOf(resource: BulkResource): ReadonlyArray<(parts: RowParts) => void> {
  if (PARTS_OF[resource]) return PARTS_OF[resource];
  const named = new Set<MappingPart>((ADS_FIELDS[resource] as readonly AdsField[]).map((f) => f.part));
  return (PARTS_OF[resource] = (Object.entries(PARTS) as Array<[MappingPart, (parts: RowParts) => void]>)
    .filter(([part]) => named.has(part))
    .map(([, map]) => map));
}

/** The fields set alone at their API path, in the order they map; sorted once per resource, not for every row. */
const PATH_FIELDS: Partial<Record<BulkResource, readonly AdsField[]>> = {};
/**
 * A dotted column and another column of the same API field both set in one row (status and
 * configured_status, budget_e5 and budget.total.amount_e5): which was meant would be a guess.
 */
function givenTwice(resource: BulkResource, cell: (name: string) => string | undefined): RowProblem[] {
  const problems: RowProblem[] = [];
  for (const dotted of pathFields(resource)) {
    if (cell(dotted.column) === undefined) continue;
    const other = fieldsInHelpOrder(resource).find((f) => f !== dotted && f.paths.includes(dotted.paths[0]!) && cell(f.column) !== undefined);
    if (other) problems.push({ field: dotted.column, message: `give ${other.column} or ${dotted.column}, not both (both set ${dotted.paths[0]})` });
  }
  return problems;
}

function pathFields(resource: BulkResource): readonly AdsField[] {
  return (PATH_FIELDS[resource] ??= fieldsInHelpOrder(resource).filter((field) => field.part === 'path'));
}

/** Every part a table may name, in the order they map a row (a new part fails typecheck here until it is implemented). */
const PARTS: Record<MappingPart, (parts: RowParts) => void> = {
  name: mapName,
  id: mapId,
  status: mapStatus,
  budget: mapBudget,
  adProduct: mapAdProduct,
  bidding: mapBidding,
  targeting: mapTargeting,
  stores: mapStores,
  dayparting: mapDayparting,
  schedule: mapSchedule,
  path: mapPaths,
};

/**
 * Maps and validates one row; `row` holds the cells by column name. `csv`: the row is a CSV
 * file's, whose decimals may be written with a comma (--decimal-comma); flags never are.
 */
export function mapRow(resource: BulkResource, mode: BulkMode, row: Record<string, string>, csv?: { decimalComma?: boolean }): MappedRow {
  const decimals: RowProblem[] = [];
  const cells = csv ? withDecimalPoints(resource, row, Boolean(csv.decimalComma), decimals) : row;
  const problems: RowProblem[] = [];
  const built = buildItem(resource, mode, cells, problems);
  // A decimal cell's own problem stands for what the parts then say of the same column.
  if (decimals.length) problems.splice(0, problems.length, ...decimals, ...problems.filter((p) => !decimals.some((d) => d.field === p.field)));
  if (problems.length) return { ok: false, problem: joinProblems(problems) };
  const mapped = validateItem(resource, mode, built.item, built.campaignId, 'columns');
  return mapped.ok && built.partial ? { ...mapped, partial: built.partial } : mapped;
}

/** The decimal columns of each resource (budget, bid, roas goal); worked out once per resource. */
const DECIMAL_COLUMNS: Partial<Record<BulkResource, readonly string[]>> = {};
function decimalColumns(resource: BulkResource): readonly string[] {
  return (DECIMAL_COLUMNS[resource] ??= (ADS_FIELDS[resource] as readonly AdsField[]).filter((f) => DECIMAL_PARSERS.has(f.parser)).map((f) => f.column));
}

/**
 * A CSV row with its decimal cells written with a point, as the parsers read them: with a
 * decimal comma (1.234,56) each is rewritten, a cell that is ambiguous or malformed a problem
 * of its column; without, a cell written with a comma is a problem that names --decimal-comma.
 */
function withDecimalPoints(resource: BulkResource, row: Record<string, string>, decimalComma: boolean, problems: RowProblem[]): Record<string, string> {
  let rewritten: Record<string, string> | undefined;
  for (const column of decimalColumns(resource)) {
    const cell = row[column];
    if (cell === undefined || cell === '' || cell === CLEAR_CELL) continue;
    if (!decimalComma) {
      if (looksDecimalComma(cell))
        problems.push({ field: column, message: `${shown(cell)} is written with a decimal comma: add --decimal-comma (or write it with a point)` });
      continue;
    }
    try {
      (rewritten ??= { ...row })[column] = decimalPointOf(cell);
    } catch (error) {
      if (!(error instanceof FieldParseError)) throw error;
      problems.push({ field: column, message: error.message });
    }
  }
  return rewritten ?? row;
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
  // null in JSON input means absent (json-nulls.ts); an item built from CSV cells has none.
  const result = SCHEMAS[resource][mode].safeParse(names === 'columns' ? item : withoutNulls(item));
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
