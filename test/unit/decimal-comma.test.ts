// The decimal comma of a spreadsheet's CSV (--decimal-comma): what a cell reads as, which
// cells are refused, how -o csv writes a decimal back, and which separator a header shows.
import { describe, expect, it } from 'vitest';
import { decimalPointOf, FieldParseError, looksDecimalComma } from '../../src/schemas/ads-field-parsers.js';
import { decimalToE5 } from '../../src/schemas/money.js';
import { withDecimalComma } from '../../src/output/csv.js';
import { otherSeparator } from '../../src/bulk/input/csv-columns.js';
import { delimiterOf } from '../../src/base/csv-dialect.js';
import { csvDialectOf } from '../../src/config/csv-dialect.js';
import { mapRow } from '../../src/bulk/input/row-mapping.js';

describe('decimalPointOf (a cell written with a decimal comma)', () => {
  it.each([
    ['1.234,56', '1234.56'],
    ['1234,56', '1234.56'],
    ['1 234,56', '1234.56'],
    ['1\u00a0234,5', '1234.5'],
    ['1\u202f234\u202f567,89', '1234567.89'],
    ['1.234.567', '1234567'],
    ['1.234.567,00001', '1234567.00001'],
    ['0,5', '0.5'],
    ['12', '12'],
    [' 7,25 ', '7.25'],
    ['1,234', '1.234'],
    ['-4,5', '-4.5'],
  ])('%j is %s', (cell, point) => expect(decimalPointOf(cell)).toBe(point));

  it('reads 1.234,56 as exactly 123456000 amount_e5', () => expect(decimalToE5(decimalPointOf('1.234,56'))).toBe('123456000'));

  it('refuses 1.234 as ambiguous (a thousand grouped, or a decimal point)', () => {
    expect(() => decimalPointOf('1.234')).toThrow(new FieldParseError('"1.234" is ambiguous with --decimal-comma (1234, or 1,234?): write 1234 or 1.234,00'));
  });

  it.each(['12.34', '1,234.56', '1.23,4', '12.345.6', '1.234 567,8', ',5', '1,2,3', '', 'abc', '12,', '1..234'])('refuses %j as malformed', (cell) => {
    expect(() => decimalPointOf(cell)).toThrow(/is not a decimal written with a decimal comma \(--decimal-comma\), e\.g\. 1234,56 or 1\.234,56/);
  });

  it('says why 12.34 is refused', () => expect(() => decimalPointOf('12.34')).toThrow(/; a point only groups thousands there$/));
});

describe('looksDecimalComma (the hint of a file read without --decimal-comma)', () => {
  it.each([
    ['12,50', true],
    ['1.234,5', true],
    ['12.50', false],
    ['1,234.50', false],
    ['abc', false],
  ])('%j: %s', (cell, looks) => expect(looksDecimalComma(cell)).toBe(looks));
});

describe('a CSV row with --decimal-comma maps as the same row with points', () => {
  const row = (budget: string) => ({ name: 'x', status: 'active', budget, currency: 'USD', budget_unit: 'daily' });
  it('same item', () => {
    expect(mapRow('campaigns', 'create', row('1.234,56'), { decimalComma: true })).toEqual(mapRow('campaigns', 'create', row('1234.56')));
  });
  it('a problem names its column, once', () => {
    expect(mapRow('campaigns', 'create', row('1.234'), { decimalComma: true })).toEqual({
      ok: false,
      problem: { field: 'budget', message: '"1.234" is ambiguous with --decimal-comma (1234, or 1,234?): write 1234 or 1.234,00' },
    });
    expect(mapRow('campaigns', 'create', row('12,5'), {})).toEqual({
      ok: false,
      problem: { field: 'budget', message: '"12,5" is written with a decimal comma: add --decimal-comma (or write it with a point)' },
    });
  });
  it("an ad group's bid and ROAS goal too", () => {
    const group = (bid: string, roas: string): Array<Record<string, string>> => [
      { ad_group_id: 'g1', bid, currency: 'USD' },
      { ad_group_id: 'g2', 'bidding.goal_based.roas_goal': roas },
    ];
    const [comma, point] = [group('1.000,25', '4,5'), group('1000.25', '4.5')];
    comma.forEach((row, i) => expect(mapRow('ad_groups', 'patch', row, { decimalComma: true })).toEqual(mapRow('ad_groups', 'patch', point[i]!)));
    expect(mapRow('ad_groups', 'patch', point[1]!)).toMatchObject({ ok: true, item: { bidding: { goal_based: { roas_goal: 4.5 } } } });
  });
  it('flags (no csv) keep reading points only', () => {
    expect(mapRow('campaigns', 'create', row('12,5'))).toMatchObject({ ok: false, problem: { field: 'budget' } });
    expect(mapRow('campaigns', 'create', row('12.5'))).toMatchObject({ ok: true });
  });
});

describe('-o csv --decimal-comma', () => {
  it.each([
    ['1234.56', '1234,56'],
    ['0.00001', '0,00001'],
    ['12', '12'],
    ['12 (amount_e5 is not digits)', '12 (amount_e5 is not digits)'],
  ])('%j -> %j', (point, comma) => expect(withDecimalComma(point)).toBe(comma));
});

describe('the separator a header shows', () => {
  it('names both flags for semicolons, --delimiter tab for tabs, a comma when the file is read with another', () => {
    expect(otherSeparator(['a;b'])).toBe(
      "the header is separated by semicolons, not commas: add --delimiter ';' (and --decimal-comma if its decimals are written 1.234,56)",
    );
    expect(otherSeparator(['a\tb'])).toBe('the header is separated by tabs, not commas: add --delimiter tab');
    expect(otherSeparator(['a,b'], ';')).toBe('the header is separated by commas, not semicolons: add --delimiter ,');
    expect(otherSeparator(['a', 'b'])).toBeUndefined();
    expect(otherSeparator(['ab'])).toBeUndefined();
  });
  it('--delimiter takes , ; | tab and \\t', () => {
    expect([',', ';', '|', 'tab', 'TAB', '\\t', '\t'].map(delimiterOf)).toEqual([',', ';', '|', '\t', '\t', '\t', '\t']);
    expect([':', '', ';;', 'semicolon'].map(delimiterOf)).toEqual([undefined, undefined, undefined, undefined]);
  });
});

describe('the dialect in effect: flags, then the env, then the profile', () => {
  const profile = { csv_delimiter: ';', csv_decimal_comma: 'true' as const };
  it.each([
    [undefined, {}, undefined, {}],
    [undefined, {}, profile, { delimiter: ';', decimalComma: true }],
    [{ delimiter: ',' }, {}, profile, { delimiter: ',', decimalComma: true }],
    [undefined, { PLATFORM_CSV_DECIMAL_COMMA: 'off' }, profile, { delimiter: ';' }],
    [undefined, { PLATFORM_CSV_DELIMITER: 'tab' }, undefined, { delimiter: '\t' }],
    [{ decimalComma: true }, { PLATFORM_CSV_DECIMAL_COMMA: '0' }, undefined, { decimalComma: true }],
  ])('flags %j, env %j, profile %j: %j', (flags, env, stored, dialect) => expect(csvDialectOf(flags, env, stored)).toEqual(dialect));
});
