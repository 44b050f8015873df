// The pure UTC date helpers and range rules shared by the sandbox and the CLI, and the
// integer splitting behind hourly and keyword rows.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  addUtcMonths,
  checkTimeRange,
  formatUtc,
  outputColumns,
  parseDateOrTime,
  parseRfc3339,
  periodStarts,
  startOfUtcMonth,
  startOfUtcWeek,
  checkReportRequest,
  columnsFor,
  reportType,
} from '../../src/schemas/reports.js';
import { splitTotals, splitUnder } from '../../src/sandbox/reporting/metrics.js';

const ms = (s: string) => Date.parse(s);

describe('parseRfc3339', () => {
  it('reads Z and offsets as UTC instants, with or without fractions', () => {
    expect(parseRfc3339('2025-08-01T00:00:00Z')).toBe(ms('2025-08-01T00:00:00Z'));
    expect(parseRfc3339('2025-08-01T02:00:00+02:00')).toBe(ms('2025-08-01T00:00:00Z'));
    expect(parseRfc3339('2025-07-31T19:00:00-05:00')).toBe(ms('2025-08-01T00:00:00Z'));
    expect(parseRfc3339('2025-08-01T00:00:00.250Z')).toBe(ms('2025-08-01T00:00:00.250Z'));
    expect(parseRfc3339('2025-08-01t00:00:00z')).toBe(ms('2025-08-01T00:00:00Z'));
  });

  it('rejects what is not an RFC 3339 date-time, and impossible dates', () => {
    for (const bad of [
      '2025-08-01',
      '2025-08-01T00:00:00',
      '2025-02-30T00:00:00Z',
      '2025-13-01T00:00:00Z',
      '2025-08-01T24:00:00Z',
      '2025-08-01 00:00:00Z',
      'yesterday',
      '2025-08-01T00:00:00+25:00',
    ]) {
      expect(parseRfc3339(bad), bad).toBeUndefined();
    }
    expect(parseRfc3339('2024-02-29T00:00:00Z')).toBe(ms('2024-02-29T00:00:00Z'));
  });
});

describe('parseDateOrTime (for --since/--until)', () => {
  it('takes a calendar date as midnight UTC, or a date-time', () => {
    expect(parseDateOrTime('2025-08-01')).toBe(ms('2025-08-01T00:00:00Z'));
    expect(parseDateOrTime('2025-08-01T12:30:00+01:00')).toBe(ms('2025-08-01T11:30:00Z'));
    expect(parseDateOrTime('2025-02-29')).toBeUndefined();
    expect(parseDateOrTime('01/08/2025')).toBeUndefined();
  });
});

describe('calendar helpers', () => {
  it('formats with seconds precision and Z', () => {
    expect(formatUtc(ms('2025-08-01T10:11:12.999Z'))).toBe('2025-08-01T10:11:12Z');
  });
  it('finds the Monday of the week and the 1st of the month in UTC', () => {
    expect(formatUtc(startOfUtcWeek(ms('2025-01-19T23:59:59Z')))).toBe('2025-01-13T00:00:00Z'); // Sunday -> Monday before
    expect(formatUtc(startOfUtcWeek(ms('2025-01-13T00:00:00Z')))).toBe('2025-01-13T00:00:00Z');
    expect(formatUtc(startOfUtcMonth(ms('2025-03-31T23:00:00Z')))).toBe('2025-03-01T00:00:00Z');
    expect(formatUtc(addUtcMonths(ms('2025-12-01T00:00:00Z'), 1))).toBe('2026-01-01T00:00:00Z');
  });
  it('lists the periods of a range per unit', () => {
    const start = ms('2025-01-01T00:00:00Z');
    expect(periodStarts('MONTHLY', start, ms('2025-04-01T00:00:00Z')).map(formatUtc)).toEqual([
      '2025-01-01T00:00:00Z',
      '2025-02-01T00:00:00Z',
      '2025-03-01T00:00:00Z',
    ]);
    expect(periodStarts('WEEKLY', ms('2025-01-06T00:00:00Z'), ms('2025-01-20T00:00:00Z'))).toHaveLength(2);
    expect(periodStarts('DAILY', start, ms('2025-01-08T00:00:00Z'))).toHaveLength(7);
    expect(periodStarts('HOURLY', start, ms('2025-01-02T00:00:00Z'))).toHaveLength(24);
    expect(periodStarts('SUMMARY', start, ms('2025-03-01T00:00:00Z'))).toEqual([start]);
  });
});

describe('checkTimeRange', () => {
  const range = (start_time: string, end_time: string) => ({ start_time, end_time });
  it('accepts ranges aligned to the unit, as the OpenAPI examples', () => {
    expect(checkTimeRange(range('2024-01-01T00:00:00Z', '2024-01-08T00:00:00Z'), 'WEEKLY', 'async')).toEqual({
      start: ms('2024-01-01T00:00:00Z'),
      end: ms('2024-01-08T00:00:00Z'),
    });
    expect(checkTimeRange(range('2024-01-01T00:00:00Z', '2024-02-01T00:00:00Z'), 'MONTHLY', 'async')).not.toHaveProperty('field');
    expect(checkTimeRange(range('2024-01-15T00:00:00Z', '2024-01-20T00:00:00Z'), 'DAILY', 'async')).not.toHaveProperty('field');
    expect(checkTimeRange(range('2024-01-15T00:00:00Z', '2024-01-20T00:00:00Z'), 'SUMMARY', 'async')).not.toHaveProperty('field');
    expect(checkTimeRange(range('2024-01-15T05:00:00Z', '2024-01-15T09:00:00Z'), 'HOURLY', 'sync')).not.toHaveProperty('field');
  });
  it('names the field that breaks the rule', () => {
    expect(checkTimeRange(range('2024-01-02T00:00:00Z', '2024-01-08T00:00:00Z'), 'WEEKLY', 'async')).toMatchObject({ field: 'time_range.start_time' });
    expect(checkTimeRange(range('2024-01-01T00:00:00Z', '2024-01-09T00:00:00Z'), 'WEEKLY', 'async')).toMatchObject({ field: 'time_range.end_time' });
    expect(checkTimeRange(range('2024-01-01T00:00:00Z', '2024-02-02T00:00:00Z'), 'MONTHLY', 'async')).toMatchObject({ field: 'time_range.end_time' });
    expect(checkTimeRange(range('2024-01-08T00:00:00Z', '2024-01-08T00:00:00Z'), 'DAILY', 'async')).toMatchObject({
      field: 'time_range.end_time',
      message: 'must be after time_range.start_time',
    });
    expect(checkTimeRange(range('2024-01-01', '2024-01-08T00:00:00Z'), 'DAILY', 'async')).toMatchObject({ field: 'time_range.start_time' });
  });
  it('checks every Monday-to-Monday range of any length as WEEKLY', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 1, max: 50 }), (week, weeks) => {
        const start = ms('2020-01-06T00:00:00Z') + week * 7 * 86400000;
        const ok = checkTimeRange(range(formatUtc(start), formatUtc(start + weeks * 7 * 86400000)), 'WEEKLY', 'async');
        const off = checkTimeRange(range(formatUtc(start + 86400000), formatUtc(start + weeks * 7 * 86400000)), 'WEEKLY', 'async');
        return !('field' in ok) && 'field' in off;
      }),
    );
  });
});

describe('report types', () => {
  it('offers the unit time column, the dimensions and the metrics; the time column comes first in rows', () => {
    const names = columnsFor(reportType('CAMPAIGN_PERFORMANCE')!, 'WEEKLY').map((c) => c.name);
    expect(names).toContain('week_of');
    expect(names).not.toContain('day_of');
    expect(names).not.toContain('ad_group_id');
    expect(names).toContain('roas_7d_on_click_date');
    expect(outputColumns(['campaign_id', 'clicks'], 'DAILY')).toEqual(['day_of', 'campaign_id', 'clicks']);
    expect(outputColumns(['campaign_id', 'day_of'], 'DAILY')).toEqual(['campaign_id', 'day_of']);
    expect(outputColumns(['campaign_id'], 'SUMMARY')).toEqual(['campaign_id']);
  });
  it('checks a whole request offline, as the CLI will before sending', () => {
    const req = {
      report_type: 'AD_PERFORMANCE',
      time_range: { start_time: '2025-01-01T00:00:00Z', end_time: '2025-02-01T00:00:00Z' },
      columns: ['ad_group_id', 'clicks'],
      time_unit: 'MONTHLY',
    };
    expect(checkReportRequest(req, 'async')).toMatchObject({ unit: 'MONTHLY', columns: ['ad_group_id', 'clicks'] });
    expect(checkReportRequest(req, 'sync')).toMatchObject({ field: 'time_unit' });
  });
});

describe('splitUnder / splitTotals', () => {
  it('parts add up exactly, stay under their caps, and keep orders <= clicks <= impressions', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 20 }), { minLength: 1, maxLength: 24 }),
        fc.integer({ min: 0, max: 100000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (weights, impressions, ctr, cvr) => {
          const clicks = Math.floor(impressions * ctr);
          const orders = Math.floor(clicks * cvr);
          const parts = splitTotals({ impressions, clicks, orders, spend: clicks * 37, sales: orders * 1999 }, weights);
          const sum = (k: 'impressions' | 'clicks' | 'orders' | 'spend' | 'sales') => parts.reduce((a, p) => a + p[k], 0);
          return (
            sum('impressions') === impressions &&
            sum('clicks') === clicks &&
            sum('orders') === orders &&
            sum('spend') === clicks * 37 &&
            sum('sales') === orders * 1999 &&
            parts.every((p) => p.orders <= p.clicks && p.clicks <= p.impressions && p.orders >= 0)
          );
        },
      ),
    );
    expect(splitUnder(10, [1, 1, 1])).toEqual([3, 3, 4]);
    expect(splitUnder(5, [1, 1], [1, 9])).toEqual([1, 4]);
  });
});
