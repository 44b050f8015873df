// The rows report commands print, arranged client-side: exact sums of the API's decimal
// strings, --sort (numeric by column type, stable, descending with -) and --limit, and a
// summary summed from daily rows.
import { describe, expect, it } from 'vitest';
import { arrangeRows, sortKeys, sumDecimals, summarize, type ReportTable } from '../../src/commands/ads/reports/arrange.js';

const table: ReportTable = {
  columns: [
    { name: 'day_of', type: 'COLUMN_TYPE_TIMESTAMP' },
    { name: 'campaign_id', type: 'COLUMN_TYPE_STRING' },
    { name: 'clicks', type: 'COLUMN_TYPE_INT64' },
    { name: 'ad_spend', type: 'COLUMN_TYPE_DOUBLE' },
  ],
  rows: [
    ['2026-11-16T00:00:00Z', 'b', '9', '10.10'],
    ['2026-11-17T00:00:00Z', 'b', '1', '0.20'],
    ['2026-11-16T00:00:00Z', 'a', '10', '9.99'],
    ['2026-11-17T00:00:00Z', 'a', '2', '100.00'],
  ],
};

describe('sumDecimals', () => {
  it.each([
    [['0.1', '0.2'], '0.3'],
    [['12.30', '0.7'], '13.00'],
    [['1', '2', '3'], '6'],
    [['-1.5', '0.25'], '-1.25'],
    [[], '0'],
    [['', '4.00'], '4.00'],
  ])('%j -> %s', (values, sum) => {
    expect(sumDecimals(values)).toBe(sum);
  });
});

describe('arrangeRows', () => {
  it('sorts numbers as numbers (10 after 9), descending with -, then cuts', () => {
    const sorted = arrangeRows(table, sortKeys(['-clicks'], table.columns), 3);
    expect(sorted.rows.map((r) => r[2])).toEqual(['10', '9', '2']);
  });

  it('keeps the API order for ties, and sorts by the next key', () => {
    const byId = arrangeRows(table, sortKeys(['campaign_id'], table.columns), undefined);
    expect(byId.rows.map((r) => `${r[1]}${r[2]}`)).toEqual(['a10', 'a2', 'b9', 'b1']);
    const twoKeys = arrangeRows(table, sortKeys(['campaign_id', 'ad_spend'], table.columns), undefined);
    expect(twoKeys.rows.map((r) => r[3])).toEqual(['9.99', '100.00', '0.20', '10.10']);
  });

  it('puts empty numbers last whichever the direction', () => {
    const withEmpty = { ...table, rows: [...table.rows, ['2026-11-18T00:00:00Z', 'c', '', '']] };
    expect(arrangeRows(withEmpty, sortKeys(['clicks'], table.columns), undefined).rows.at(-1)![1]).toBe('c');
    expect(arrangeRows(withEmpty, sortKeys(['-clicks'], table.columns), undefined).rows.at(-1)![1]).toBe('c');
  });

  it('refuses a column the report does not have, naming it and a near one', () => {
    expect(() => sortKeys(['-spend'], table.columns)).toThrow(/--sort -spend: "spend" is not a column of this report; did you mean -ad_spend\?/);
  });
});

describe('summarize', () => {
  it('one row per entity in first-seen order, without the day column, counts and money summed exactly', () => {
    expect(summarize(table)).toEqual({
      columns: table.columns.slice(1),
      rows: [
        ['b', '10', '10.30'],
        ['a', '12', '109.99'],
      ],
    });
  });
});
