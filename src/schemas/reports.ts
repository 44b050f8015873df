// Ads reporting: report types, their columns and time units, filters, and the time-range
// rules (OpenAPI tag Reporting). Plain data and pure functions, free of zod, so that the CLI
// can list types, validate offline and complete --type/--columns without loading anything.
// The OpenAPI names one type (AD_PERFORMANCE) and some of its columns in examples; the other
// types and columns are ours, named in the same style.
import { addUtcDays, addUtcMonths, formatUtc, isUtcMidnight, isWholeUtcHour, parseRfc3339, utcWeekday } from './utc-dates.js';

export {
  addUtcDays,
  addUtcMonths,
  formatUtc,
  isUtcMidnight,
  parseDateOrTime,
  parseRfc3339,
  startOfUtcDay,
  startOfUtcMonth,
  startOfUtcWeek,
  utcWeekday,
} from './utc-dates.js';

export const REPORT_SCOPE = 'ads.reporting';

export const ASYNC_TIME_UNITS = ['DAILY', 'WEEKLY', 'MONTHLY', 'SUMMARY'] as const;
export const SYNC_TIME_UNITS = ['HOURLY', 'DAILY'] as const;
export type AsyncTimeUnit = (typeof ASYNC_TIME_UNITS)[number];
export type SyncTimeUnit = (typeof SYNC_TIME_UNITS)[number];
export type TimeUnit = AsyncTimeUnit | SyncTimeUnit;

export const COLUMN_TYPES = ['COLUMN_TYPE_STRING', 'COLUMN_TYPE_INT64', 'COLUMN_TYPE_DOUBLE', 'COLUMN_TYPE_TIMESTAMP', 'COLUMN_TYPE_BOOLEAN'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

export const FILTER_OPERATORS = ['EQUAL', 'NOT_EQUAL', 'IN'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export const REPORT_STATUSES = ['PROCESSING', 'COMPLETED', 'FAILED'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** The only file format the API names. */
export const REPORT_FILE_FORMAT = 'CSV';

/** The download URL of a completed report stays valid this long (OpenAPI: 5 minutes). */
export const REPORT_URL_TTL_MS = 5 * 60 * 1000;

/** Longest range of one report (ours; the API does not say). */
export const MAX_ASYNC_RANGE_DAYS = 400;
export const MAX_SYNC_RANGE_DAYS = { DAILY: 92, HOURLY: 14 } as const;

export interface ColumnDef {
  name: string;
  type: ColumnType;
  kind: 'time' | 'dimension' | 'metric';
  description: string;
  /**
   * What a metric measures: a count or money adds up over days and entities (a summary can be
   * summed from daily rows); a ratio does not (it comes from the totals of its own row).
   * Money is in the row's currency_code.
   */
  measure?: 'count' | 'money' | 'ratio';
}

/** The time column each unit adds to its rows (SUMMARY has none). */
export const TIME_COLUMNS: Readonly<Record<TimeUnit, string | undefined>> = {
  HOURLY: 'hour_of',
  DAILY: 'day_of',
  WEEKLY: 'week_of',
  MONTHLY: 'month_of',
  SUMMARY: undefined,
};

const time = (name: string, description: string): ColumnDef => ({ name, type: 'COLUMN_TYPE_TIMESTAMP', kind: 'time', description });
const dim = (name: string, description: string): ColumnDef => ({ name, type: 'COLUMN_TYPE_STRING', kind: 'dimension', description });
const int = (name: string, description: string): ColumnDef => ({ name, type: 'COLUMN_TYPE_INT64', kind: 'metric', description, measure: 'count' });
const dbl = (name: string, description: string, measure: 'money' | 'ratio'): ColumnDef => ({
  name,
  type: 'COLUMN_TYPE_DOUBLE',
  kind: 'metric',
  description,
  measure,
});

export const TIME_COLUMN_DEFS: readonly ColumnDef[] = [
  time('hour_of', 'start of the hour (UTC)'),
  time('day_of', 'start of the day (UTC)'),
  time('week_of', 'the Monday starting the week (UTC)'),
  time('month_of', 'the 1st of the month (UTC)'),
];

/** Metrics every report type offers. Money is in the account's currency; ratios come from the row's totals. */
export const METRIC_COLUMNS: readonly ColumnDef[] = [
  int('impressions', 'times an ad was shown'),
  int('clicks', 'clicks on an ad'),
  dbl('click_through_rate', 'clicks / impressions', 'ratio'),
  dbl('ad_spend', 'money spent', 'money'),
  dbl('cost_per_click', 'ad_spend / clicks', 'ratio'),
  dbl('cost_per_mille', 'ad_spend / impressions x 1000', 'ratio'),
  int('orders_7d_on_click_date', 'orders within 7 days of a click, on the click date'),
  dbl('sales_7d_on_click_date', 'sales of those orders', 'money'),
  dbl('roas_7d_on_click_date', 'sales_7d_on_click_date / ad_spend', 'ratio'),
  dbl('conversion_rate_7d_on_click_date', 'orders_7d_on_click_date / clicks', 'ratio'),
  dbl('cost_per_order_7d_on_click_date', 'ad_spend / orders_7d_on_click_date', 'ratio'),
];

export interface ReportTypeDef {
  name: string;
  description: string;
  dimensions: readonly ColumnDef[];
  /** Units of POST reporting/report. */
  asyncUnits: readonly AsyncTimeUnit[];
  /** Units of POST reporting/sync; empty when the type has no sync form. */
  syncUnits: readonly SyncTimeUnit[];
  /** The columns without --columns: the entity, its currency, and the totals that add up (so a sync summary has them too). */
  defaultColumns: readonly string[];
}

const CAMPAIGN_DIMS = [dim('campaign_id', 'campaign'), dim('campaign_name', 'campaign name'), dim('currency_code', 'ISO 4217 code of the money columns')];
/** Metrics of every default: counts and money, which add up over days (a sync summary sums them). */
const DEFAULT_METRICS = ['impressions', 'clicks', 'ad_spend', 'orders_7d_on_click_date', 'sales_7d_on_click_date'];

const AD_GROUP_DIMS = [
  ...CAMPAIGN_DIMS,
  dim('ad_group_id', 'ad group'),
  dim('ad_group_name', 'ad group name'),
  dim('ad_product', 'SPONSORED_LISTING or SPONSORED_SEARCH'),
];

export const REPORT_TYPES: readonly ReportTypeDef[] = [
  {
    name: 'AD_PERFORMANCE',
    description: 'Delivery and sales per ad group',
    dimensions: AD_GROUP_DIMS,
    asyncUnits: ASYNC_TIME_UNITS,
    syncUnits: SYNC_TIME_UNITS,
    defaultColumns: ['campaign_id', 'ad_group_id', 'ad_group_name', 'currency_code', ...DEFAULT_METRICS],
  },
  {
    name: 'CAMPAIGN_PERFORMANCE',
    description: 'Delivery and sales per campaign',
    dimensions: CAMPAIGN_DIMS,
    asyncUnits: ASYNC_TIME_UNITS,
    syncUnits: SYNC_TIME_UNITS,
    defaultColumns: ['campaign_id', 'campaign_name', 'currency_code', ...DEFAULT_METRICS],
  },
  {
    name: 'KEYWORD_PERFORMANCE',
    description: 'Delivery and sales per targeted keyword of keyword-targeted ad groups',
    dimensions: [...AD_GROUP_DIMS, dim('keyword', 'targeted keyword'), dim('match_type', 'MATCH_TYPE_EXACT or MATCH_TYPE_BROAD')],
    asyncUnits: ASYNC_TIME_UNITS,
    syncUnits: [],
    defaultColumns: ['ad_group_id', 'keyword', 'match_type', 'currency_code', ...DEFAULT_METRICS],
  },
];

export const REPORT_TYPE_NAMES = REPORT_TYPES.map((t) => t.name);

export function reportType(name: string): ReportTypeDef | undefined {
  return REPORT_TYPES.find((t) => t.name === name);
}

/** Every column a type can select with a unit: the unit's time column, the dimensions, the metrics. */
export function columnsFor(type: ReportTypeDef, unit?: TimeUnit): ColumnDef[] {
  const timeName = unit ? TIME_COLUMNS[unit] : undefined;
  const times = unit ? TIME_COLUMN_DEFS.filter((c) => c.name === timeName) : TIME_COLUMN_DEFS;
  return [...times, ...type.dimensions, ...METRIC_COLUMNS];
}

export function columnDef(name: string): ColumnDef | undefined {
  return [...TIME_COLUMN_DEFS, ...REPORT_TYPES.flatMap((t) => t.dimensions), ...METRIC_COLUMNS].find((c) => c.name === name);
}

/**
 * The columns of the rows, in order: the unit's time column first unless it was asked for
 * (as the OpenAPI's sync example shows day_of without asking), then the requested columns.
 */
export function outputColumns(columns: readonly string[], unit: TimeUnit): string[] {
  const timeName = TIME_COLUMNS[unit];
  return timeName && !columns.includes(timeName) ? [timeName, ...columns] : [...columns];
}

export interface ReportFilter {
  column: string;
  operator: string;
  values: string[];
}

export interface ReportRequest {
  report_type: string;
  time_range: { start_time: string; end_time: string };
  columns: string[];
  time_unit: string;
  file_format?: string;
  filters?: ReportFilter[];
}

export type ReportMode = 'async' | 'sync';

/** What a person (or an agent's tool call) asks of a report, as given: checked by `reportRequest`. */
export interface ReportQueryFlags {
  type: string;
  /** Without it, the type's default columns (`ads reports types`). */
  columns?: string[];
  unit: string;
  since?: string;
  until?: string;
  last?: string;
  filter?: string[];
}

/** A request found valid: the type, unit and range resolved. */
export interface CheckedReport {
  type: ReportTypeDef;
  unit: TimeUnit;
  /** Milliseconds since the epoch; `end` is exclusive. */
  start: number;
  end: number;
  columns: string[];
  filters: Array<{ column: string; operator: FilterOperator; values: string[] }>;
}

/** What is wrong, naming the request field (`columns[2]`, `time_range.end_time`, ...). */
export interface ReportProblem {
  field: string;
  message: string;
}

/** Checks a request (already of the right JSON shape) against the type's rules; the first problem or the resolved report. */
export function checkReportRequest(req: ReportRequest, mode: ReportMode): ReportProblem | CheckedReport {
  const type = reportType(req.report_type);
  if (!type) return { field: 'report_type', message: `unknown report type ${JSON.stringify(req.report_type)}; one of ${REPORT_TYPE_NAMES.join(', ')}` };
  const units: readonly string[] = mode === 'async' ? type.asyncUnits : type.syncUnits;
  if (mode === 'sync' && units.length === 0) return { field: 'report_type', message: `${type.name} has no sync form; create it with POST reporting/report` };
  if (!units.includes(req.time_unit))
    return { field: 'time_unit', message: `${JSON.stringify(req.time_unit)} is not a ${mode} time unit of ${type.name}; one of ${units.join(', ')}` };
  const unit = req.time_unit as TimeUnit;
  if (mode === 'async' && req.file_format !== undefined && req.file_format !== REPORT_FILE_FORMAT) {
    return { field: 'file_format', message: `must be ${REPORT_FILE_FORMAT}` };
  }
  const range = checkTimeRange(req.time_range, unit, mode);
  if ('field' in range) return range;
  const allowed = new Map(columnsFor(type, unit).map((c) => [c.name, c]));
  if (req.columns.length === 0) return { field: 'columns', message: 'must name at least one column' };
  const seen = new Set<string>();
  for (const [i, name] of req.columns.entries()) {
    if (!allowed.has(name)) return { field: `columns[${i}]`, message: unknownColumn(name, type, unit) };
    if (seen.has(name)) return { field: `columns[${i}]`, message: `${name} is named twice` };
    seen.add(name);
  }
  const filters: CheckedReport['filters'] = [];
  for (const [i, f] of (req.filters ?? []).entries()) {
    const problem = checkFilter(f, type);
    if (problem) return { field: `filters[${i}].${problem.field}`, message: problem.message };
    filters.push({ column: f.column, operator: f.operator as FilterOperator, values: f.values });
  }
  return { type, unit, start: range.start, end: range.end, columns: [...req.columns], filters };
}

function unknownColumn(name: string, type: ReportTypeDef, unit: TimeUnit): string {
  const def = columnDef(name);
  if (def?.kind === 'time') return `${name} is not a column of ${unit} reports${TIME_COLUMNS[unit] ? ` (use ${TIME_COLUMNS[unit]})` : ''}`;
  if (def) return `${name} is not a column of ${type.name}`;
  return `unknown column ${JSON.stringify(name)} for ${type.name}`;
}

function checkFilter(f: ReportFilter, type: ReportTypeDef): ReportProblem | undefined {
  if (!type.dimensions.some((d) => d.name === f.column)) {
    return {
      field: 'column',
      message: `cannot filter on ${JSON.stringify(f.column)}; filter on a dimension of ${type.name}: ${type.dimensions.map((d) => d.name).join(', ')}`,
    };
  }
  if (!(FILTER_OPERATORS as readonly string[]).includes(f.operator)) {
    return { field: 'operator', message: `unknown operator ${JSON.stringify(f.operator)}; one of ${FILTER_OPERATORS.join(', ')}` };
  }
  if (f.values.length === 0) return { field: 'values', message: 'must hold at least one value' };
  if (f.operator !== 'IN' && f.values.length !== 1) return { field: 'values', message: `${f.operator} takes exactly one value (use IN for several)` };
  return undefined;
}

/** Range rules per unit: WEEKLY Monday to Monday, MONTHLY 1st to 1st, HOURLY whole hours, the rest whole UTC days. */
export function checkTimeRange(
  range: { start_time: string; end_time: string },
  unit: TimeUnit,
  mode: ReportMode,
): ReportProblem | { start: number; end: number } {
  const start = parseRfc3339(range.start_time);
  if (start === undefined)
    return { field: 'time_range.start_time', message: `must be an RFC 3339 date-time, e.g. 2025-08-01T00:00:00Z, not ${JSON.stringify(range.start_time)}` };
  const end = parseRfc3339(range.end_time);
  if (end === undefined)
    return { field: 'time_range.end_time', message: `must be an RFC 3339 date-time, e.g. 2025-08-21T00:00:00Z, not ${JSON.stringify(range.end_time)}` };
  if (end <= start) return { field: 'time_range.end_time', message: 'must be after time_range.start_time' };
  const aligned = unit === 'HOURLY' ? isWholeUtcHour : isUtcMidnight;
  const grain = unit === 'HOURLY' ? 'a whole hour (UTC)' : 'midnight UTC (00:00:00Z)';
  if (!aligned(start)) return { field: 'time_range.start_time', message: `${unit} reports start at ${grain}` };
  if (!aligned(end)) return { field: 'time_range.end_time', message: `${unit} reports end at ${grain}` };
  if (unit === 'WEEKLY') {
    if (utcWeekday(start) !== 1) return { field: 'time_range.start_time', message: 'WEEKLY reports start on a Monday' };
    if (utcWeekday(end) !== 1) return { field: 'time_range.end_time', message: 'WEEKLY reports end on a Monday (exclusive), e.g. the next Monday' };
  }
  if (unit === 'MONTHLY') {
    if (new Date(start).getUTCDate() !== 1) return { field: 'time_range.start_time', message: 'MONTHLY reports start on the 1st of a month' };
    if (new Date(end).getUTCDate() !== 1)
      return { field: 'time_range.end_time', message: 'MONTHLY reports end on the 1st of a month (exclusive), e.g. the 1st of the next month' };
  }
  const maxDays = mode === 'async' ? MAX_ASYNC_RANGE_DAYS : MAX_SYNC_RANGE_DAYS[unit as SyncTimeUnit];
  if (end > addUtcDays(start, maxDays))
    return { field: 'time_range', message: `${mode === 'sync' ? `sync ${unit} ` : ''}reports cover at most ${maxDays} days` };
  return { start, end };
}

/** Start of each period of `unit` in [start, end): one period for SUMMARY. */
export function periodStarts(unit: TimeUnit, start: number, end: number): number[] {
  if (unit === 'SUMMARY') return [start];
  const next = (t: number) =>
    unit === 'HOURLY' ? t + 3_600_000 : unit === 'DAILY' ? addUtcDays(t, 1) : unit === 'WEEKLY' ? addUtcDays(t, 7) : addUtcMonths(t, 1);
  const out: number[] = [];
  for (let t = start; t < end; t = next(t)) out.push(t);
  return out;
}

/**
 * The range as people read it: `2026-11-16 .. 2026-11-23, UTC, end exclusive` (times when
 * either end is not midnight).
 */
export function describeRange(start: number, end: number): string {
  const whole = isUtcMidnight(start) && isUtcMidnight(end);
  const show = (ms: number) => (whole ? formatUtc(ms).slice(0, 10) : formatUtc(ms));
  return `${show(start)} .. ${show(end)}, UTC, end exclusive`;
}

/** One end of a range in a file name: `2026-11-16`, or `2026-11-16T0500Z` off midnight (no colons). */
export function fileStamp(ms: number): string {
  const text = formatUtc(ms);
  return isUtcMidnight(ms) ? text.slice(0, 10) : `${text.slice(0, 13)}${text.slice(14, 16)}Z`;
}

/** `campaign-performance_2026-11-16_2026-11-23.csv`: the type, then where the range starts and ends (exclusive). */
export function reportFileName(type: string, start: number, end: number): string {
  return `${type.toLowerCase().replace(/_/g, '-')}_${fileStamp(start)}_${fileStamp(end)}.csv`;
}
