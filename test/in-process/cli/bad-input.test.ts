import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir, TestUser, type CliResult } from '../../helpers/cli.js';
import { expectOneLine } from '../../helpers/one-line.js';

let sandbox: Sandbox;
let user: TestUser;
const account = 'acct-1';
const dir = tempDir();

function file(name: string, content: string): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox);
});

/** Every refusal here is one line (and the usage hint after a flag error). */
async function run(args: string[], options?: Parameters<TestUser['run']>[1]): Promise<CliResult> {
  const result = await user.run(args, options);
  expectOneLine(result.stderr);
  return result;
}
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetStats());

const cases: Array<[string, string[], RegExp]> = [
  [
    'an unknown --status value',
    ['ads', 'campaigns', 'create', '--account', account, '--name', 'x', '--status', 'running'],
    /--status.*running.*(active|Allowed)/,
  ],
  [
    'a non-numeric budget',
    ['ads', 'campaigns', 'create', '--account', account, '--name', 'x', '--budget', 'ten', '--currency', 'USD'],
    /--budget: "ten" is not a decimal amount/,
  ],
  [
    'an over-precise budget',
    ['ads', 'campaigns', 'create', '--account', account, '--name', 'x', '--budget', '12.345678', '--currency', 'USD'],
    /--budget: "12\.345678" has 6 decimals/,
  ],
  [
    'a budget without a currency',
    ['ads', 'campaigns', 'create', '--account', account, '--name', 'x', '--budget', '12'],
    /--currency is required with --budget/,
  ],
  [
    'a bad currency code',
    ['ads', 'campaigns', 'create', '--account', account, '--name', 'x', '--budget', '12', '--currency', 'dollars'],
    /--currency: must be a three-letter ISO 4217 code/,
  ],
  [
    'a missing --account (and no default)',
    ['ads', 'campaigns', 'list'],
    /^no ad account: give --account ID, set PLATFORM_ACCOUNT, or run `platform config set account ID`$/m,
  ],
  ['a non-numeric --limit', ['ads', 'campaigns', 'list', '--account', account, '--limit', 'lots'], /--limit.*must be a whole number/],
  ['--page-limit over 2000', ['ads', 'campaigns', 'list', '--account', account, '--page-limit', '2001'], /--page-limit must be from 1 to 2000/],
  [
    'a --base-url that is not http(s)',
    ['auth', 'login', '--client-credentials', '--client-id', 'x', '--base-url', 'ftp://example.com'],
    /--base-url must be an http:\/\/ or https:\/\/ URL/,
  ],
  ['an unknown flag', ['ads', 'campaigns', 'list', '--account', account, '--colour'], /unknown option '--colour'/],
  [
    'a misspelled flag: the suggestion is on the error line, the usage hint follows',
    ['ads', 'campaigns', 'list', '--acount', account],
    /^error: unknown option '--acount' \(Did you mean --account\?\)\nUsage: platform ads campaigns list /,
  ],
  ['a misspelled command', ['ads', 'campaigns', 'lst'], /^error: unknown command 'lst' \(Did you mean list\?\)\nUsage: /],
  ['a patch with nothing to change', ['ads', 'campaigns', 'patch', '--account', account, '--campaign-id', 'c1'], /nothing to change/],
  [
    'a bad daypart',
    ['ads', 'ad-groups', 'create', '--account', account, '--campaign', 'c', '--name', 'g', '--store-ids', 's', '--daypart', 'someday=1-2'],
    /--daypart/,
  ],
  [
    'a daypart minute off the quarter hour',
    ['ads', 'ad-groups', 'create', '--account', account, '--campaign', 'c', '--name', 'g', '--store-ids', 's', '--daypart', 'mon=06:10-22:00'],
    /--daypart: must be a multiple of 15/,
  ],
];

describe('bad input: exit 2, one line naming the problem, nothing sent', () => {
  it.each(cases)('%s', async (_label, args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('a column and the dotted API path of the same field in one CSV row: which was meant would be a guess', async () => {
    for (const [header, cells, message] of <Array<[string, string, string]>>[
      [
        'status,configured_status',
        'CAMPAIGN_CONFIGURED_STATUS_PAUSED,CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
        'configured_status: give status or configured_status, not both',
      ],
      ['budget_e5,budget.total.amount_e5,currency', '100000,200000,USD', 'budget.total.amount_e5: give budget_e5 or budget.total.amount_e5, not both'],
    ]) {
      const result = await run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file('twice.csv', `campaign_id,${header}\nc1,${cells}\n`)]);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(new RegExp(`^1 of 1 rows are invalid; nothing was sent .*: line 2: ${message.replace(/[.()]/g, '\\$&')}`));
    }
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('a CSV create row without a status says it is required (the flags default to active; a row says which)', async () => {
    const result = await run(['ads', 'campaigns', 'create', '--account', account, '--from-csv', file('no-status.csv', 'name,status\nA,\n')]);
    expect([result.code, result.stderr]).toEqual([
      2,
      '1 of 1 rows are invalid; nothing was sent (fix them, or add --skip-invalid to send the rest): line 2: status: status is required to create a campaign: active or paused\n',
    ]);
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('--resume with a file that holds no results (the input CSV given by mistake) is refused, nothing sent', async () => {
    const input = file('input-as-results.csv', 'campaign_id,name\nc1,A\n');
    const result = await run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', input, '--resume', input]);
    expect([result.code, result.stderr]).toEqual([
      2,
      `--resume: ${input} is not a results file of this command (no result column): give its journal or its results\n`,
    ]);
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('malformed JSON input', async () => {
    const result = await run(['ads', 'campaigns', 'create', '--account', account, '--from-json', file('bad.json', '[{"name": "x",')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^--from-json at the end of the input: not valid JSON/);
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('schema-invalid JSON input names the item and the field', async () => {
    const items = [
      { name: 'ok', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' },
      {
        name: 'bad',
        configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
        budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '12.5', currency_code: 'USD' } },
      },
    ];
    const result = await run(['ads', 'campaigns', 'create', '--account', account, '--from-json', file('invalid.json', JSON.stringify(items))]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      '1 of 2 rows are invalid; nothing was sent (fix them, or add --skip-invalid to send the rest): item 2: budget.total.amount_e5: must be a string of digits (amount x 10^5)\n',
    );
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('an unknown field in JSON input is named, never dropped', async () => {
    const result = await run(['ads', 'campaigns', 'create', '--account', account, '--from-json', '-'], {
      stdin: '{"name":"x","configured_status":"CAMPAIGN_CONFIGURED_STATUS_ACTIVE","colour":"red"}\n',
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/: line 1: unknown field colour\n$/);
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('flags and --from-json together are refused', async () => {
    const result = await run(['ads', 'campaigns', 'create', '--account', account, '--name', 'x', '--from-json', file('one.json', '[]')]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--from-json cannot be combined with --name/);
    expect(sandbox.stats.requests).toEqual([]);
  });
});
