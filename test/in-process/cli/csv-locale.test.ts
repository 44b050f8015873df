// CSV of any locale: a spreadsheet saved in a comma-decimal locale (German Excel's "CSV UTF-8":
// a BOM, CRLF, semicolons, 1.234,56) is read with --delimiter ';' --decimal-comma (or the
// profile's csv_* settings) and applied exactly; without them it is refused naming both flags,
// nothing sent; -o csv writes the same dialect back.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';
import { scaled } from '../../helpers/time-scale.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
const dir = tempDir();

function file(name: string, content: string): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

/** amount_e5 as German Excel writes it: 1.234,56 (grouped) or 1234,56, always with the decimals it has (at least two). */
function german(amountE5: bigint, grouped: boolean): string {
  const whole = (amountE5 / 100_000n).toString();
  let fraction = (amountE5 % 100_000n).toString().padStart(5, '0').replace(/0+$/, '');
  if (fraction.length < 2) fraction = fraction.padEnd(2, '0');
  return `${grouped ? whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.') : whole},${fraction}`;
}

/** A spreadsheet's file: BOM, CRLF, semicolons. */
const excel = (rows: string[][]) => `\uFEFF${rows.map((r) => r.join(';')).join('\r\n')}\r\n`;

async function campaigns(): Promise<Campaign[]> {
  return user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--all']);
}

const ndjson = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Result);

beforeAll(async () => {
  // An account of its own: only the campaigns these tests create are listed.
  ({ sandbox, user, account } = await sandboxWithUser({ campaigns: 0 }));
});
afterAll(() => sandbox.close());

const ROWS = 10_000;
/** Row i's budget: from 0.00001 to 500,000, with 0 to 5 decimals. */
const amountOf = (i: number, salt: bigint) => ((BigInt(i) * 7_919_113n + salt) % 50_000_000_000n) + 1n;

describe('a German-locale CSV (BOM, CRLF, semicolons, decimal commas)', () => {
  it(`creates ${ROWS} campaigns and patches them, every budget exact to the last digit`, { timeout: scaled(120_000) }, async () => {
    const header = ['name', 'status', 'budget', 'currency', 'budget_unit'];
    const rows = Array.from({ length: ROWS }, (_, i) => [
      // A name holding the separator is quoted, as Excel does.
      `"Müller; Söhne ${i}"`,
      i % 2 ? 'active' : 'paused',
      german(amountOf(i, 0n), i % 3 !== 0),
      'USD',
      'daily',
    ]);
    const created = await user.run([
      'ads',
      'campaigns',
      'create',
      '--account',
      account,
      '--from-csv',
      file('neu.csv', excel([header, ...rows])),
      '--delimiter',
      ';',
      '--decimal-comma',
      '-o',
      'ndjson',
    ]);
    expect(created.code, created.stderr).toBe(0);
    expect(created.stderr).toContain(`${ROWS} rows: ${ROWS} ok`);
    const byName = new Map((await campaigns()).map((c) => [c.name, c]));
    expect(byName.size).toBe(ROWS);
    for (let i = 0; i < ROWS; i++) {
      const campaign = byName.get(`Müller; Söhne ${i}`);
      expect(campaign?.budget, `row ${i + 2}`).toEqual({ unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: amountOf(i, 0n).toString(), currency_code: 'USD' } });
    }

    // The same file's way back: a patch of every budget, as the spreadsheet would write it.
    const ids = Array.from({ length: ROWS }, (_, i) => byName.get(`Müller; Söhne ${i}`)!.campaign_id);
    const patch = excel([['campaign_id', 'budget'], ...ids.map((id, i) => [id, german(amountOf(i, 12_345n), i % 2 === 0)])]);
    const patched = await user.run([
      'ads',
      'campaigns',
      'patch',
      '--account',
      account,
      '--from-csv',
      file('budgets.csv', patch),
      '--delimiter',
      ';',
      '--decimal-comma',
      '-o',
      'ndjson',
    ]);
    expect(patched.code, patched.stderr).toBe(0);
    expect(ndjson(patched.stdout).filter((r) => r.result !== 'ok')).toEqual([]);
    const after = new Map((await campaigns()).map((c) => [c.campaign_id, c]));
    ids.forEach((id, i) => expect(after.get(id)!.budget!.total.amount_e5, `row ${i + 2}`).toBe(amountOf(i, 12_345n).toString()));
  });

  it("is refused without the flags, naming --delimiter ';' and --decimal-comma; nothing is sent", async () => {
    sandbox.resetStats();
    const csv = excel([
      ['name', 'status', 'budget', 'currency', 'budget_unit'],
      ['Sommer', 'active', '1.234,56', 'USD', 'daily'],
      // Read with commas, this row is not even CSV: the header's problem is what is said.
      ['"Müller; Söhne"', 'active', '0,5', 'USD', 'daily'],
    ]);
    const result = await user.run(['ads', 'campaigns', 'create', '--account', account, '--from-csv', file('sommer.csv', csv)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("add --delimiter ';' (and --decimal-comma if its decimals are written 1.234,56)");
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('a decimal that is ambiguous or malformed is a problem of its row and column; a comma without --decimal-comma names the flag', async () => {
    sandbox.resetStats();
    const csv = excel([
      ['name', 'status', 'budget', 'currency', 'budget_unit'],
      ['Eins', 'active', '1.234', 'USD', 'daily'],
      ['Zwei', 'active', '12.34', 'USD', 'daily'],
      ['Drei', 'active', '1,234.5', 'USD', 'daily'],
      ['Vier', 'active', '1.23,4', 'USD', 'daily'],
      ['Fünf', 'active', '5,5', 'USD', 'daily'],
    ]);
    const result = await user.run([
      'ads',
      'campaigns',
      'create',
      '--account',
      account,
      '--from-csv',
      file('falsch.csv', csv),
      '--delimiter',
      ';',
      '--decimal-comma',
    ]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('; line ');
    expect(lines[0]).toContain('4 of 5 rows are invalid; nothing was sent');
    expect(lines[0]).toContain('line 2: budget: "1.234" is ambiguous with --decimal-comma (1234, or 1,234?): write 1234 or 1.234,00');
    expect(lines[1]).toMatch(
      /^3: budget: "12\.34" is not a decimal written with a decimal comma \(--decimal-comma\), e\.g\. 1234,56 or 1\.234,56; a point only groups thousands there$/,
    );
    expect(lines[2]).toMatch(/^4: budget: "1,234\.5" is not a decimal written with a decimal comma/);
    expect(lines[3]).toMatch(/^5: budget: "1\.23,4" is not a decimal written with a decimal comma/);
    expect(sandbox.stats.requests).toEqual([]);

    // A comma-separated file whose decimals have commas (quoted), read without --decimal-comma.
    const comma = await user.run(['ads', 'campaigns', 'create', '--account', account, '--from-csv', '-'], {
      stdin: 'name,status,budget,currency,budget_unit\r\nSechs,active,"12,50",USD,daily\r\n',
    });
    expect(comma.code).toBe(2);
    expect(comma.stderr).toContain('line 2: budget: "12,50" is written with a decimal comma: add --decimal-comma (or write it with a point)');
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('reads tab- and pipe-separated files (--delimiter tab, \\t, |)', async () => {
    for (const [flag, separator, word] of [
      ['tab', '\t', 'tab'],
      ['\\t', '\t', 'backslash t'],
      ['|', '|', 'pipe'],
    ] as const) {
      const name = `Getrennt ${word}`;
      const csv = [['name', 'status', 'budget', 'currency', 'budget_unit'].join(separator), [name, 'paused', '0,5', 'USD', 'weekly'].join(separator)].join(
        '\n',
      );
      const result = await user.run(
        ['ads', 'campaigns', 'create', '--account', account, '--from-csv', '-', '--delimiter', flag, '--decimal-comma', '-o', 'ndjson'],
        { stdin: csv },
      );
      expect(result.code, result.stderr).toBe(0);
      expect((await campaigns()).find((c) => c.name === name)?.budget?.total.amount_e5).toBe('50000');
    }
  });
});

describe('-o csv in the same dialect', () => {
  it('writes a BOM, semicolons and decimal commas; JSON is untouched; the flags without -o csv or --from-csv are refused', async () => {
    const created = await user.json<Array<{ id: string }>>([
      'ads',
      'campaigns',
      'create',
      '--account',
      account,
      '--name',
      'Straße 1',
      '--budget',
      '1234.5',
      '--currency',
      'USD',
      '--budget-unit',
      'daily',
    ]);
    const id = created[0]!.id;
    const csv = await user.run(['ads', 'campaigns', 'list', '--account', account, '--id', id, '-o', 'csv', '--delimiter', ';', '--decimal-comma']);
    expect(csv.code, csv.stderr).toBe(0);
    expect(csv.stdout).toBe('\uFEFFcampaign_id;name;status;budget;currency;budget_unit\n' + `${id};Straße 1;active;1234,50;USD;daily\n`);
    const json = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--id', id]);
    expect(json[0]!.budget!.total.amount_e5).toBe('123450000');
    for (const flags of [['--delimiter', ';'], ['--decimal-comma'], ['--delimiter', ';', '-o', 'json']]) {
      const refused = await user.run(['ads', 'campaigns', 'list', '--account', account, ...flags]);
      expect(refused.code, flags.join(' ')).toBe(2);
      expect(refused.stderr).toContain('only with -o csv or --from-csv');
    }
    const bad = await user.run(['ads', 'campaigns', 'list', '--account', account, '-o', 'csv', '--delimiter', ':']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--delimiter: ":" is not one of , ; | or tab');
  });
});

describe('config set csv_delimiter / csv_decimal_comma', () => {
  it('a team that always works so needs no flags; a flag wins over the setting', async () => {
    const team = new TestUser(sandbox);
    expect((await team.run(['config', 'set', 'csv_delimiter', ':'])).code).toBe(2);
    expect((await team.run(['config', 'set', 'csv_decimal_comma', 'ja'])).code).toBe(2);
    for (const [key, value] of [
      ['csv_delimiter', ';'],
      ['csv_decimal_comma', 'true'],
    ] as const) {
      const set = await team.run(['config', 'set', key, value]);
      expect(set.code, set.stderr).toBe(0);
      expect((await team.run(['config', 'get', key])).stdout.trim()).toBe(value);
    }
    const created = await team.run(['ads', 'campaigns', 'create', '--account', account, '--from-csv', '-', '-o', 'ndjson'], {
      stdin: excel([
        ['name', 'status', 'budget', 'currency', 'budget_unit'],
        ['Team', 'active', '2.000,01', 'USD', 'daily'],
      ]),
    });
    expect(created.code, created.stderr).toBe(0);
    const id = ndjson(created.stdout)[0]!.id;
    expect((await campaigns()).find((c) => c.campaign_id === id)?.budget?.total.amount_e5).toBe('200001000');
    const listed = await team.run(['ads', 'campaigns', 'list', '--account', account, '--id', id, '-o', 'csv']);
    expect(listed.stdout).toBe(`\uFEFFcampaign_id;name;status;budget;currency;budget_unit\n${id};Team;active;2000,01;USD;daily\n`);
    // A flag wins over its setting; --delimiter alone leaves the setting's decimal comma.
    const once = await team.run(['ads', 'campaigns', 'list', '--account', account, '--id', id, '-o', 'csv', '--delimiter', ',']);
    expect(once.stdout).toBe(`\uFEFFcampaign_id,name,status,budget,currency,budget_unit\n${id},Team,active,"2000,01",USD,daily\n`);
    // The environment wins over the profile, as for every setting.
    const env = await team.run(['ads', 'campaigns', 'list', '--account', account, '--id', id, '-o', 'csv'], {
      env: { PLATFORM_CSV_DELIMITER: ',', PLATFORM_CSV_DECIMAL_COMMA: 'false' },
    });
    expect(env.stdout).toBe(`campaign_id,name,status,budget,currency,budget_unit\n${id},Team,active,2000.01,USD,daily\n`);
  });
});
