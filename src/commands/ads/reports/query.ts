// From the report flags (--type, --columns, --unit, --since/--until or --last, --filter) to
// the API's report request, checked offline with the same rules the API applies, so bad
// input exits 2 naming the flag and nothing is sent. Dates are UTC; --until is exclusive,
// as the API's end_time is.
import { UsageError } from '../../../base/errors.js';
import {
  addUtcDays,
  addUtcMonths,
  checkReportRequest,
  FILTER_OPERATORS,
  formatUtc,
  parseDateOrTime,
  reportType,
  startOfUtcDay,
  startOfUtcMonth,
  startOfUtcWeek,
  type CheckedReport,
  type ReportFilter,
  type ReportMode,
  type ReportQueryFlags,
  type ReportRequest,
  type TimeUnit,
} from '../../../schemas/reports.js';

const HOUR_MS = 3_600_000;

/** The request and what the API's rules resolved it to, or a UsageError naming the flag. */
export function reportRequest(flags: ReportQueryFlags, mode: ReportMode, now: number): { request: ReportRequest; checked: CheckedReport } {
  const unit = flags.unit.toUpperCase() as TimeUnit;
  const { start, end } = timeRange(flags, now);
  const request: ReportRequest = {
    report_type: flags.type,
    time_range: { start_time: formatUtc(start), end_time: formatUtc(end) },
    columns: flags.columns ?? [...(reportType(flags.type)?.defaultColumns ?? [])],
    time_unit: unit,
    ...(flags.filter?.length ? { filters: flags.filter.map(parseFilter) } : {}),
  };
  const checked = checkReportRequest(request, mode);
  if ('field' in checked) throw new UsageError(`${flagFor(checked.field, flags)}: ${checked.message}${lastHint(checked.field, flags, unit)}; nothing was sent`);
  return { request, checked };
}

/**
 * --since/--until (dates or RFC 3339 times), or --last N{h,d,w,m}: the N whole hours, days,
 * weeks (Monday to Monday) or months before the current one, whatever the unit, so that
 * `--last 1w` is the same week for a weekly and a summary report.
 */
function timeRange(flags: ReportQueryFlags, now: number): { start: number; end: number } {
  if (flags.last !== undefined) {
    if (flags.since !== undefined || flags.until !== undefined) throw new UsageError('--last cannot be used with --since or --until');
    const match = /^(\d+)([hdwm])$/.exec(flags.last.trim());
    if (!match || Number(match[1]) < 1)
      throw new UsageError(`--last: expected a count and h, d, w or m (e.g. 7d, 24h, 4w, 3m), not ${JSON.stringify(flags.last)}`);
    const count = Number(match[1]);
    const suffix = match[2]!;
    const end = periodStart(suffix, now);
    const start =
      suffix === 'h'
        ? end - count * HOUR_MS
        : suffix === 'd'
          ? addUtcDays(end, -count)
          : suffix === 'w'
            ? addUtcDays(end, -7 * count)
            : addUtcMonths(end, -count);
    return { start, end };
  }
  if (flags.since === undefined || flags.until === undefined)
    throw new UsageError('give the range with --since and --until (dates or RFC 3339 times, UTC), or --last (e.g. 7d)');
  const start = parseDateOrTime(flags.since);
  if (start === undefined)
    throw new UsageError(`--since: expected a date (2025-01-13) or an RFC 3339 time (2025-01-13T00:00:00Z), not ${JSON.stringify(flags.since)}`);
  const end = parseDateOrTime(flags.until);
  if (end === undefined)
    throw new UsageError(`--until: expected a date (2025-01-20) or an RFC 3339 time (2025-01-20T00:00:00Z), not ${JSON.stringify(flags.until)}`);
  if (end <= start) throw new UsageError(`--until (${flags.until}) must be after --since (${flags.since}); --until is exclusive`);
  return { start, end };
}

/** Where the current hour, day, week or month (by --last's suffix) starts: --last counts whole ones before it. */
function periodStart(suffix: string, now: number): number {
  if (suffix === 'h') return Math.floor(now / HOUR_MS) * HOUR_MS;
  if (suffix === 'w') return startOfUtcWeek(now);
  if (suffix === 'm') return startOfUtcMonth(now);
  return startOfUtcDay(now);
}

/**
 * `column=value` (EQUAL), `column!=value` (NOT_EQUAL), `column=v1,v2` (IN), or the operator
 * spelt out: `column=IN:v1,v2`, `column=NOT_EQUAL:value`.
 */
export function parseFilter(text: string): ReportFilter {
  const match = /^([a-z_]+)(!?=)(.*)$/.exec(text.trim());
  if (!match || match[3] === '') throw new UsageError(`--filter: expected column=value, column!=value or column=OPERATOR:v1,v2, not ${JSON.stringify(text)}`);
  const [, column, sign, rest] = match as unknown as [string, string, string, string];
  const spelt = /^([A-Za-z_]+):(.*)$/.exec(rest);
  const named = spelt && (FILTER_OPERATORS as readonly string[]).includes(spelt[1]!.toUpperCase()) ? spelt[1]!.toUpperCase() : undefined;
  if (named && sign === '!=') throw new UsageError(`--filter ${text}: use column=OPERATOR:values or column!=value, not both`);
  const values = (named ? spelt![2]! : rest)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  if (values.length === 0) throw new UsageError(`--filter ${text}: no value given`);
  const operator = named ?? (sign === '!=' ? 'NOT_EQUAL' : values.length > 1 ? 'IN' : 'EQUAL');
  return { column, operator, values };
}

/** --last in the unit's own periods aligns with it: say which suffix does. */
function lastHint(field: string, flags: ReportQueryFlags, unit: TimeUnit): string {
  if (flags.last === undefined || !field.startsWith('time_range.')) return '';
  const example = unit === 'WEEKLY' ? '1w' : unit === 'MONTHLY' ? '1m' : unit === 'HOURLY' ? '24h' : '7d';
  return ` (give --last in ${unit === 'WEEKLY' ? 'weeks' : unit === 'MONTHLY' ? 'months' : unit === 'HOURLY' ? 'hours' : 'days'}, e.g. --last ${example})`;
}

/** The flag a problem of the request comes from. */
function flagFor(field: string, flags: ReportQueryFlags): string {
  if (field === 'report_type') return `--type ${flags.type}`;
  if (field === 'time_unit') return `--unit ${flags.unit}`;
  if (field.startsWith('columns')) return '--columns';
  if (field.startsWith('filters')) {
    const index = Number(/\[(\d+)\]/.exec(field)?.[1] ?? 0);
    return `--filter ${flags.filter?.[index] ?? ''}`.trimEnd();
  }
  const range = flags.last !== undefined ? '--last' : undefined;
  if (field === 'time_range.start_time') return range ?? '--since';
  if (field === 'time_range.end_time') return range ?? '--until';
  return range ?? '--since/--until';
}
