// Output for scripts: -o text, --query over every page and its limits, CSV a spreadsheet
// will not run, JSON byte for byte into a pipe. In-process, against a real sandbox.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
// More campaigns than the API's default page of 50.
const CAMPAIGNS = 120;
beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser({ campaigns: CAMPAIGNS }));
});
afterAll(() => sandbox.close());

const create = async (name: string): Promise<string> => {
  const result = await user.run(['ads', 'campaigns', 'create', '--account', account, '--name', name, '--budget', '10', '--currency', 'USD', '--json']);
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Array<{ id: string }>)[0]!.id;
};

describe('--query on a list reads every page', () => {
  it('answers about all campaigns, not the first page, and says nothing about more pages', async () => {
    const result = await user.run(['ads', 'campaigns', 'list', '--account', account, '--query', 'length(@)']);
    expect(result.code, result.stderr).toBe(0);
    expect(Number(result.stdout)).toBeGreaterThanOrEqual(CAMPAIGNS);
    expect(result.stderr).not.toMatch(/--page-token/);
    const all = await user.json<unknown[]>(['ads', 'campaigns', 'list', '--account', account, '--all']);
    expect(Number(result.stdout)).toBe(all.length);
  });

  it('with --limit N, answers about the first N', async () => {
    const result = await user.run(['ads', 'campaigns', 'list', '--account', account, '--limit', '7', '--query', 'length(@)']);
    expect(result.stdout.trim()).toBe('7');
  });
});

describe('-o text', () => {
  it('a --query string result is the bare value: ID=$(... --query "[0].id" -o text)', async () => {
    const result = await user.run([
      'ads',
      'campaigns',
      'create',
      '--account',
      account,
      '--name',
      'Scripted',
      '--budget',
      '10',
      '--currency',
      'USD',
      '--query',
      '[0].id',
      '-o',
      'text',
    ]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
    // JSON keeps its quotes: it is JSON.
    const json = await user.run(['ads', 'campaigns', 'list', '--account', account, '--limit', '1', '--query', '[0].campaign_id']);
    expect(json.stdout).toMatch(/^"[0-9a-f-]{36}"\n$/);
  });

  it('a list is one line per item, the tab-separated values of the table, no header: grep and cut work', async () => {
    const result = await user.run(['ads', 'campaigns', 'list', '--account', account, '--all', '-o', 'text']);
    expect(result.code, result.stderr).toBe(0);
    const all = await user.json<Array<{ campaign_id: string; name: string }>>(['ads', 'campaigns', 'list', '--account', account, '--all']);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines).toHaveLength(all.length);
    expect(lines.map((line) => line.split('\t')[0])).toEqual(all.map((c) => c.campaign_id));
    expect(lines.map((line) => line.split('\t')[1])).toEqual(all.map((c) => c.name));
    const sushi = lines.filter((line) => line.includes('sushi'));
    expect(sushi.length).toBeGreaterThan(0);
    for (const line of sushi) expect(line).not.toMatch(/["{}[\]]/);
  });

  it('a tab or backslash inside a value is escaped, so every line has the same fields', async () => {
    const id = await create('Tab\there, back\\slash');
    const result = await user.run(['ads', 'campaigns', 'list', '--account', account, '--id', id, '-o', 'text']);
    const [line, ...rest] = result.stdout.split('\n');
    expect(rest).toEqual(['']);
    expect(line!.split('\t').slice(0, 2)).toEqual([id, 'Tab\\there, back\\\\slash']);
    const plain = await user.run(['ads', 'accounts', 'list', '-o', 'text']);
    const fields = new Set(
      plain.stdout
        .trimEnd()
        .split('\n')
        .map((l) => l.split('\t').length),
    );
    expect(fields.size).toBe(1);
  });

  it('pairs from --query are one line each, tab-separated', async () => {
    const result = await user.run(['ads', 'accounts', 'list', '--query', '[].[ad_account_id, name]', '-o', 'text']);
    const accounts = await user.json<Array<{ ad_account_id: string; name: string }>>(['ads', 'accounts', 'list']);
    expect(result.stdout).toBe(accounts.map((a) => `${a.ad_account_id}\t${a.name}\n`).join(''));
  });
});

describe('--query limits', () => {
  it.each([
    ['50,000 dots', Array.from({ length: 50_001 }, () => 'a').join('.'), /--query: the expression is 100,001 characters long; at most 4,096/],
    [
      '1,500 fields deep, within the length limit',
      Array.from({ length: 1500 }, () => 'a').join('.'),
      /--query: the expression is nested more than 100 levels deep/,
    ],
    ['1,500 brackets deep', `${'['.repeat(1500)}a${']'.repeat(1500)}`, /--query: the expression is nested more than 100 levels deep/],
  ])('%s: exit 2, one error line naming --query, nothing sent', async (_name, expression, message) => {
    const before = sandbox.stats.apiRequests;
    const result = await user.run(['ads', 'campaigns', 'list', '--account', account, '--query', expression]);
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(/Maximum call stack/);
    expect(result.stderr.split('\n')[0]).toMatch(message);
    expect(sandbox.stats.apiRequests).toBe(before);
  });
});

describe('CSV a spreadsheet will not run', () => {
  const names = ['=HYPERLINK("http://evil","x")', '+1+1', '-2+3 promo', '@SUM(A1)'];
  let ids: string[];
  beforeAll(async () => {
    ids = [];
    for (const name of names) ids.push(await create(name));
  });
  const list = (args: string[] = [], tty = false) =>
    user.run(['ads', 'campaigns', 'list', '--account', account, '--id', ids.join(','), '-o', 'csv', ...args], { tty });

  it('--safe-csv starts formula-like cells with a quote; a plain number stays a number', async () => {
    const result = await list(['--safe-csv']);
    for (const name of names) expect(result.stdout).toContain(`'${name.replace(/"/g, '""')}`);
    expect(result.stdout).toMatch(/,10\.00,USD,/);
  });

  it('on a terminal it is on by default', async () => {
    const result = await list([], true);
    for (const name of names) expect(result.stdout).toContain(`'${name.replace(/"/g, '""')}`);
  });

  it('piped, the names are written as they are, so list -o csv | patch --from-csv - changes nothing', async () => {
    const result = await list();
    expect(result.stdout).not.toContain("'");
    const patch = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-', '--dry-run', '--json'], { stdin: result.stdout });
    expect(patch.code, patch.stderr).toBe(0);
    expect((JSON.parse(patch.stdout) as Array<{ result: string }>).map((r) => r.result)).toEqual(names.map(() => 'unchanged'));
  });
});

describe('JSON into a pipe is byte for byte', () => {
  it('keeps a line or paragraph separator inside a value as it is (-o json indents at line breaks only)', async () => {
    const name = 'Line\u2028separator, paragraph\u2029separator';
    const id = await create(name);
    const listed = await user.run(['ads', 'campaigns', 'list', '--account', account, '--id', id, '-o', 'json']);
    expect(listed.code, listed.stderr).toBe(0);
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>)[0]!.name).toBe(name);
  });

  it('keeps a zero-width space that a terminal gets escaped (table, text), so two names that look alike read apart', async () => {
    const plain = 'Lookalike sale';
    const hidden = 'Look\u200balike sale';
    const ids = [await create(plain), await create(hidden)];
    const list = ['ads', 'campaigns', 'list', '--account', account, '--id', ids.join(',')];
    const json = await user.run([...list, '-o', 'json']);
    expect((JSON.parse(json.stdout) as Array<{ name: string }>).map((c) => c.name).sort()).toEqual([plain, hidden].sort());
    const csv = await user.run([...list, '-o', 'csv']);
    expect(csv.stdout).toContain(hidden);
    const table = await user.run([...list, '-o', 'table'], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.stdout).toContain('Look\\u200balike sale');
    expect(table.stdout).not.toContain('\u200b');
    const text = await user.run([...list, '-o', 'text'], { tty: true });
    expect(text.stdout).toContain('Look\\u200balike sale');
    expect(text.stdout).not.toContain('\u200b');
  });

  it('keeps a bidi override and a C1 character that a terminal gets escaped (text, api)', async () => {
    const name = 'Sale \u202egnp.exe \u009b31m';
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ campaigns: [{ campaign_id: 'c-1', name, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const env = { PLATFORM_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, PLATFORM_TOKEN: 'fake-token' };
      const piped = await user.run(['ads', 'campaigns', 'list', '--account', account, '-o', 'ndjson'], { env });
      expect(piped.stdout).toContain(name);
      const text = await user.run(['ads', 'campaigns', 'list', '--account', account, '-o', 'text'], { env, tty: true });
      expect(text.stdout).toContain('Sale \\u202egnp.exe \\x9b31m');
      // `platform api` pretty-prints for a terminal: escaped there too, the same JSON.
      const api = await user.run(['api', `/v1/ads/${account}/campaigns`], { env, tty: true });
      expect(api.stdout).toContain('"Sale \\u202egnp.exe \\u009b31m"');
      expect((JSON.parse(api.stdout) as { campaigns: Array<{ name: string }> }).campaigns[0]!.name).toBe(name);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
