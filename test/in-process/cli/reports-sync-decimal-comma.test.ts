// Issue #45, item 4: `reports sync -o csv --decimal-comma` (with or without --delimiter ';')
// writes money and ratio cells with a decimal comma, counts and text as they are, a BOM for
// Excel, and reads back to the same rows as plain `-o csv`. The profile's csv_* settings do the same.
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';

const COLUMNS = ['day_of', 'campaign_id', 'campaign_name', 'impressions', 'clicks', 'ad_spend', 'cost_per_click', 'click_through_rate'];
/** Money (ad_spend) and ratios: the decimals. */
const DECIMAL = new Set(['ad_spend', 'cost_per_click', 'click_through_rate']);

let sandbox: Sandbox;
let user: TestUser;
let account: string;
/** The rows as plain -o csv gives them: points, commas between cells. */
let plain: string[][];

const sync = (...flags: string[]) =>
  user.run([
    ...['ads', 'reports', 'sync', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', COLUMNS.join(',')],
    ...['--since', '2025-01-13', '--until', '2025-01-16', '-o', 'csv', ...flags],
  ]);

/** A decimal-comma file read back: the BOM skipped, 1,5 -> 1.5 in the decimal columns only. */
function readBack(text: string, delimiter: string): string[][] {
  const [header, ...rows]: string[][] = parse(text, { bom: true, delimiter });
  const decimal = header!.map((name) => DECIMAL.has(name));
  return [header!, ...rows.map((row) => row.map((cell, i) => (decimal[i] ? cell.replace(',', '.') : cell)))];
}

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser({ timeScale: 1000 }));
  const result = await sync();
  if (result.code !== 0) throw new Error(result.stderr);
  plain = parse(result.stdout);
});
afterAll(() => sandbox.close());

describe('reports sync -o csv --decimal-comma', () => {
  it('money and ratios get a decimal comma (the cells quoted, as commas still separate them); the rest is as it was', async () => {
    expect(plain[0]).toEqual(COLUMNS);
    expect(plain.length).toBeGreaterThan(3);
    // Every decimal column has a fractional value to show the comma on.
    for (const name of DECIMAL) expect(plain.slice(1).some((row) => row[COLUMNS.indexOf(name)]!.includes('.'))).toBe(true);

    const result = await sync('--decimal-comma');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.startsWith(`\uFEFF${COLUMNS.join(',')}\n`)).toBe(true);
    const [, first] = plain;
    const spend = first![COLUMNS.indexOf('ad_spend')]!;
    expect(result.stdout).toContain(`,"${spend.replace('.', ',')}",`);
    const rows: string[][] = parse(result.stdout, { bom: true });
    for (const [r, row] of rows.slice(1).entries()) {
      for (const [i, cell] of row.entries()) {
        if (DECIMAL.has(COLUMNS[i]!)) expect(cell).toMatch(/^-?\d+(,\d+)?$/);
        else expect(cell).toBe(plain[r + 1]![i]);
      }
    }
    expect(readBack(result.stdout, ',')).toEqual(plain);
  });

  it("--delimiter ';' --decimal-comma: semicolons between cells, nothing quoted, and the same rows read back", async () => {
    const result = await sync('--delimiter', ';', '--decimal-comma');
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.split('\n');
    expect(lines[0]).toBe(`\uFEFF${COLUMNS.join(';')}`);
    expect(lines[1]).not.toContain('"');
    expect(lines[1]!.split(';')).toHaveLength(COLUMNS.length);
    expect(readBack(result.stdout, ';')).toEqual(plain);
    expect(result.stderr).toContain('CAMPAIGN_PERFORMANCE (DAILY): 2025-01-13 .. 2025-01-16, UTC, end exclusive');
  });

  it('--unit summary sums exactly and writes the sums with a decimal comma too', async () => {
    const columns = ['campaign_id', 'clicks', 'ad_spend'];
    const run = (...flags: string[]) =>
      user.run([
        ...['ads', 'reports', 'sync', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', columns.join(',')],
        ...['--since', '2025-01-13', '--until', '2025-01-16', '--unit', 'summary', '--sort', '-ad_spend', '-o', 'csv', ...flags],
      ]);
    const points = await run();
    const commas = await run('--delimiter', ';', '--decimal-comma');
    expect(commas.code, commas.stderr).toBe(0);
    const summed: string[][] = parse(points.stdout);
    expect(summed.slice(1).every((row) => /^\d+\.\d\d$/.test(row[2]!))).toBe(true);
    expect(readBack(commas.stdout, ';')).toEqual(summed);
  });

  it("the profile's csv_delimiter and csv_decimal_comma give the same file as the flags", async () => {
    const flags = await sync('--delimiter', ';', '--decimal-comma');
    for (const [key, value] of [
      ['csv_delimiter', ';'],
      ['csv_decimal_comma', 'true'],
    ] as const) {
      const set = await user.run(['config', 'set', key, value]);
      expect(set.code, set.stderr).toBe(0);
    }
    try {
      const profile = await sync();
      expect(profile.code, profile.stderr).toBe(0);
      expect(profile.stdout).toBe(flags.stdout);
    } finally {
      for (const key of ['csv_delimiter', 'csv_decimal_comma']) await user.run(['config', 'unset', key]);
    }
  });
});
