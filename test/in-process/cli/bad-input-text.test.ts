// Bad values that used to go through: control characters and lone surrogates in names and
// keywords, amounts past the API's int64, empty flag values, a currency that is no ISO 4217
// code. Each is refused with exit 2 and one line naming the flag, or the row and field,
// before anything is sent.
import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type CliResult, type TestUser } from '../../helpers/cli.js';
import { expectOneLine } from '../../helpers/one-line.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let campaign: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  campaign = (await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', account]))[0]!.campaign_id;
});
afterAll(() => sandbox.close());
beforeEach(() => sandbox.resetStats());

const active = 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE';

/** Every refusal here is one line (and the usage hint after a flag error). */
async function run(args: string[], options?: Parameters<TestUser['run']>[1]): Promise<CliResult> {
  const result = await user.run(args, options);
  if (result.code !== 0) expectOneLine(result.stderr);
  return result;
}

async function refused(args: string[], message: RegExp, stdin?: string): Promise<void> {
  const result = await run(args, { stdin });
  expect(result.code, result.stderr).toBe(2);
  expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe('');
  expect(sandbox.stats.requests).toEqual([]);
}

describe('names and keywords: no control characters but tab and line breaks, no lone surrogates', () => {
  const create = (...more: string[]) => ['ads', 'campaigns', 'create', '--account', account, ...more];

  it.each([
    ['NUL', 'a\u0000b', /^--name: contains the control character U\+0000 at character 2$/m],
    ['an escape sequence', 'Evil \u001b[2J', /^--name: contains the control character U\+001B at character 6$/m],
    ['DEL', 'a\u007f', /^--name: contains the control character U\+007F/m],
    ['a C1 control', '\u009b31m', /^--name: contains the control character U\+009B at character 1$/m],
    ['a lone high surrogate', 'ab\ud800', /^--name: contains a lone surrogate U\+D800 at character 3 \(not a Unicode character\)$/m],
    ['a lone low surrogate', '\udc00', /^--name: contains a lone surrogate U\+DC00/m],
  ])('--name with %s', (_what, name, message) => refused(create('--name', name), message));

  it('a CSV row with a NUL names its line and column; the other rows are not sent either', async () => {
    await refused(
      create('--from-csv', '-'),
      /^1 of 2 rows are invalid; nothing was sent \(fix them, or add --skip-invalid to send the rest\): line 3: name: contains the control character U\+0000 at character 4\n$/,
      `name,status\nfine,active\nbad\u0000,active\n`,
    );
  });

  it('a JSON "\\ud800" escape names its line and field', async () => {
    await refused(
      create('--from-json', '-'),
      /^1 of 2 rows are invalid; nothing was sent \(fix them, or add --skip-invalid to send the rest\): line 2: name: contains a lone surrogate U\+D800 at character 2/,
      `{"name":"ok","configured_status":"${active}"}\n{"name":"x\\ud800","configured_status":"${active}"}\n`,
    );
  });

  it('a lone surrogate in a JSON id is refused, not a crash while building the URL', async () => {
    const result = await run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', '-'], {
      stdin: '{"campaign_id":"\\udc00","name":"x"}\n',
    });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(
      /^1 of 1 rows are invalid; nothing was sent \(fix them, or add --skip-invalid to send the rest\): line 1: campaign_id: the id contains a lone surrogate U\+DC00/,
    );
    expect(sandbox.stats.requests).toEqual([]);
  });

  it('keywords too', () =>
    refused(
      [
        'ads',
        'ad-groups',
        'create',
        '--account',
        account,
        '--campaign',
        campaign,
        '--name',
        'g',
        '--store-ids',
        's',
        '--start',
        '2026-01-01T00:00:00Z',
        '--keywords',
        'pizza,bad\u0007',
      ],
      /--keywords: .*contains the control character U\+0007/,
    ));

  it('any name holding a control character or a lone surrogate is refused, naming line and field (property)', async () => {
    const bad = fc.oneof(
      fc.integer({ min: 0, max: 0x1f }).filter((c) => ![0x09, 0x0a, 0x0d].includes(c)),
      fc.integer({ min: 0x7f, max: 0x9f }),
      fc.integer({ min: 0xd800, max: 0xdfff }),
    );
    await fc.assert(
      fc.asyncProperty(fc.string({ maxLength: 20 }), bad, fc.string({ maxLength: 20 }), async (before, code, after) => {
        // A low surrogate right after a high one would pair with it: keep the bad one alone.
        const name = `x${before}${String.fromCharCode(code)}.${after}`;
        const result = await run(create('--from-json', '-'), { stdin: `${JSON.stringify({ name, configured_status: active })}\n` });
        expect(result.code).toBe(2);
        expect(result.stderr).toMatch(
          /^1 of 1 rows are invalid; nothing was sent \(fix them, or add --skip-invalid to send the rest\): line 1: name: contains (the control character|a lone surrogate) U\+[0-9A-F]{4} at character \d+/,
        );
        expect(sandbox.stats.apiRequests).toBe(0);
      }),
      { numRuns: 40 },
    );
  });

  it('tabs, line breaks and characters beyond the BMP are sent as given', async () => {
    const name = 'Tab\there\nand 寿司🍣';
    const created = await user.json<Array<{ id: string }>>(create('--name', name));
    const listed = await user.json<Array<{ campaign_id: string; name: string }>>(['ads', 'campaigns', 'list', '--account', account, '--id', created[0]!.id]);
    expect(listed[0]!.name).toBe(name);
  });
});

describe('amount_e5 is an int64', () => {
  const create = (...more: string[]) => [
    'ads',
    'campaigns',
    'create',
    '--account',
    account,
    '--name',
    'x',
    '--budget-unit',
    'daily',
    '--currency',
    'USD',
    ...more,
  ];

  it('a 400-digit --budget-e5', () =>
    refused(create('--budget-e5', '9'.repeat(400)), /^--budget-e5: "9{70,79}…" \(400 characters\) is more than 9223372036854775807, the largest amount_e5$/m));
  it('--budget one unit past the largest', () =>
    refused(create('--budget', '92233720368547.75808'), /^--budget: "92233720368547\.75808" is more than the largest amount, 92233720368547\.75807$/m));
  it('a 400-digit amount_e5 in JSON', () =>
    refused(
      ['ads', 'campaigns', 'create', '--account', account, '--from-json', '-'],
      /^1 of 1 rows are invalid; nothing was sent \(fix them, or add --skip-invalid to send the rest\): line 1: budget\.total\.amount_e5: must be at most 9223372036854775807 \(an int64\), not 400 digits\n$/,
      `${JSON.stringify({ name: 'x', configured_status: active, budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '9'.repeat(400), currency_code: 'USD' } } })}\n`,
    ));

  it('the largest amount itself is sent', async () => {
    const created = await user.json<Array<{ id: string }>>(create('--budget-e5', '9223372036854775807'));
    expect(created[0]!.id).toBeTruthy();
  });
});

describe('an empty flag value is an error, for every flag', () => {
  it.each([
    ['--budget', ['ads', 'campaigns', 'create', '--account', 'a', '--name', 'x', '--currency', 'USD', '--budget', '']],
    ['--name', ['ads', 'campaigns', 'patch', '--account', 'a', '--campaign-id', 'c', '--name', '']],
    ['--profile', ['--profile', '', 'ads', 'accounts', 'list']],
    ['--account', ['ads', 'campaigns', 'list', '--account', '']],
    ['--limit', ['ads', 'campaigns', 'list', '--account', 'a', '--limit', '']],
    ['--keywords', ['ads', 'ad-groups', 'patch', '--account', 'a', '--campaign', 'c', '--ad-group-id', 'g', '--keywords', ' ']],
    ['--from-csv', ['ads', 'campaigns', 'create', '--account', 'a', '--from-csv', '']],
    ['--output', ['ads', 'accounts', 'list', '--output', '']],
    ['--query', ['ads', 'accounts', 'list', '--query', '']],
    ['--status', ['ads', 'campaigns', 'patch', '--account', 'a', '--campaign-id', 'c', '--status', '']],
  ])('%s', async (flag, args) => {
    const result = await run(args);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr.split('\n')[0]).toContain(flag);
    expect(result.stderr.split('\n')[0]).toMatch(/must not be empty|Allowed choices/);
    expect(sandbox.stats.requests).toEqual([]);
  });
});

describe('a currency that is not an ISO 4217 code is refused before anything is sent', () => {
  it.each(['dollars', 'US$', 'U5D', '€'])('patch --currency %s does not read the campaign first', (currency) =>
    refused(
      ['ads', 'campaigns', 'patch', '--account', account, '--campaign-id', campaign, '--budget', '10', '--currency', currency],
      /^--currency: must be a three-letter ISO 4217 code, e\.g\. USD$/m,
    ),
  );

  it('ad-groups patch --budget-e5 with a bad currency', () =>
    refused(
      ['ads', 'ad-groups', 'patch', '--account', account, '--campaign', campaign, '--ad-group-id', 'g', '--budget-e5', '100', '--currency', 'EURO'],
      /^--currency: must be a three-letter ISO 4217 code/m,
    ));

  it('a CSV patch row names its line and the column', () =>
    refused(
      ['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'],
      /^1 of 1 rows are invalid; nothing was sent \(fix them, or add --skip-invalid to send the rest\): line 2: currency: must be a three-letter ISO 4217 code/,
      `campaign_id,budget,currency\n${'c1'},10,usdollar\n`,
    ));
});
