// Hostile input and hostile servers: ids that would change the URL path, a server that
// repeats its page token, control characters in server text, secrets in --debug traces.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';
import { expectOneLine } from '../../helpers/one-line.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let campaign: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  const campaigns = await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', account]);
  campaign = campaigns[0]!.campaign_id;
});
afterAll(() => sandbox.close());

describe('ids in URL paths', () => {
  const long = 'x'.repeat(100_000);
  const bad: Array<[string, string]> = [
    ['empty', ''],
    ['dot', '.'],
    ['dot-dot', '..'],
    ['control character', 'a\u0001b'],
    ['escape sequence', '\u001b[31m'],
    ['100,000 characters', long],
  ];
  // [what, argv with ID in place of the bad id, the flag or column the error must name]
  const commands: Array<[string, (id: string) => string[], string | RegExp]> = [
    ['campaigns list --account', (id) => ['ads', 'campaigns', 'list', '--account', id], '--account'],
    ['ad-groups list --campaign', (id) => ['ads', 'ad-groups', 'list', '--account', account, '--campaign', id], '--campaign'],
    ['ads list --ad-group', (id) => ['ads', 'ads', 'list', '--account', account, '--campaign', campaign, '--ad-group', id], '--ad-group'],
    ['campaigns patch --campaign-id', (id) => ['ads', 'campaigns', 'patch', '--account', account, '--campaign-id', id, '--status', 'paused'], '--campaign-id'],
    [
      'ad-groups patch --ad-group-id',
      (id) => ['ads', 'ad-groups', 'patch', '--account', account, '--campaign', campaign, '--ad-group-id', id, '--status', 'paused'],
      '--ad-group-id',
    ],
    ['campaigns list --id', (id) => ['ads', 'campaigns', 'list', '--account', account, '--id', `ok-id,${id || '.'}`], '--id'],
    ['rider request get', (id) => ['rider', 'request', 'get', id], /\bid\b/],
    ['rider request cancel', (id) => ['rider', 'request', 'cancel', id], /\bid\b/],
    ['delivery quote --customer', (id) => ['delivery', 'quote', '--customer', id, '--pickup', 'a', '--dropoff', 'b'], '--customer'],
  ];
  // argv is built when the test runs: the account and campaign come from beforeAll.
  const cases = commands.flatMap(([what, argv, named]) => bad.map(([kind, id]) => [`${what} ${kind}`, () => argv(id), named] as const));

  it('has at least 20 cases', () => expect(cases.length).toBeGreaterThanOrEqual(20));

  it.each(cases)('%s: exit 2, the flag named, nothing sent', async (_name, argv, named) => {
    const before = sandbox.stats.apiRequests + sandbox.stats.tokenRequests;
    const result = await user.run(argv());
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toMatch(named);
    expectOneLine(result.stderr);
    expect(result.stderr).not.toContain('\u001b');
    expect(sandbox.stats.apiRequests + sandbox.stats.tokenRequests).toBe(before);
  });

  it.each([
    ['campaign_id ..', 'campaign_id,name\n..,Renamed\n'],
    ['campaign_id with a control character', 'campaign_id,name\n"a\u0002b",Renamed\n'],
  ])('a CSV row with %s is refused with its line and column, nothing sent', async (_name, csv) => {
    const before = sandbox.stats.apiRequests;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'], { stdin: csv });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/line 2: campaign_id/);
    expectOneLine(result.stderr);
    expect(sandbox.stats.apiRequests).toBe(before);
  });

  it('percent-encodes an id so it stays one path segment', async () => {
    const result = await user.run(['ads', 'ad-groups', 'list', '--account', account, '--campaign', 'a/../../b?x=1#y']);
    expect(result.code).toBe(1);
    const last = sandbox.stats.requests.at(-1)!;
    expect(last.path).toBe(`/v1/ads/${account}/campaigns/a%2F..%2F..%2Fb%3Fx%3D1%23y/ad-groups`);
  });
});

/** A fake API on loopback: answers every list with the page `page(n)` for its n-th request. */
async function fakeApi(page: (n: number) => unknown): Promise<{ url: string; requests: () => number; close: () => Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    n++;
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(page(n)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => n,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

describe('runaway pagination', () => {
  const campaignOn = (n: number) => ({ campaign_id: `c-${n}`, name: `Campaign ${n}`, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' });

  it.each([
    [
      'repeats its page token',
      (n: number) => ({ campaigns: [campaignOn(n)], next_page_token: { value: 'same-token' } }),
      /page token "same-token" a second time/,
    ],
    ['sends empty pages with new tokens forever', (n: number) => ({ campaigns: [], next_page_token: { value: `t-${n}` } }), /empty pages in a row/],
  ])('a server that %s stops --all with one line, exit 1', async (_name, page, message) => {
    const api = await fakeApi(page);
    try {
      const result = await user.run(['ads', 'campaigns', 'list', '--account', account, '--all', '-o', 'ndjson'], {
        env: { PLATFORM_BASE_URL: api.url, PLATFORM_TOKEN: 'fake-token' },
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(message);
      expect(api.requests()).toBeLessThan(20);
    } finally {
      await api.close();
    }
  });

  it('stops api --paginate the same way', async () => {
    const api = await fakeApi((n) => ({ campaigns: [campaignOn(n)], next_page_token: { value: 'again' } }));
    try {
      const result = await user.run(['api', `/v1/ads/${account}/campaigns`, '--paginate'], {
        env: { PLATFORM_BASE_URL: api.url, PLATFORM_TOKEN: 'fake-token' },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/a second time/);
      expectOneLine(result.stderr);
      expect(api.requests()).toBeLessThan(5);
    } finally {
      await api.close();
    }
  });
});

describe('control characters from servers and input', () => {
  const hostile = 'Evil \u001b[2J\u001b]0;pwned\u0007 name';

  // The CLI and the sandbox refuse such a name (test/in-process/cli/bad-input-text.test.ts): a server that has one serves it here.
  it('escapes them in a table on a terminal and keeps them byte for byte in piped CSV', async () => {
    const api = await fakeApi(() => ({ campaigns: [{ campaign_id: 'c-1', name: hostile, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] }));
    try {
      const env = { PLATFORM_BASE_URL: api.url, PLATFORM_TOKEN: 'fake-token' };
      const table = await user.run(['ads', 'campaigns', 'list', '--account', account], { tty: true, env });
      expect(table.code, table.stderr).toBe(0);
      // Our own bold header may use escapes; the row holding the server's text has none.
      expect(table.stdout.split('\n')[1]).not.toMatch(/[\u0000-\u0008\u000b-\u001f]/);
      expect(table.stdout).toContain('Evil \\x1b[2J\\x1b]0;pwned\\x07 name');
      const csv = await user.run(['ads', 'campaigns', 'list', '--account', account, '-o', 'csv'], { env });
      expect(csv.stdout).toContain(hostile);
    } finally {
      await api.close();
    }
  });

  it('escapes an API error message on a terminal', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'BadRequest', message: `no\u001b[31m red\u001b]0;title\u0007` }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await user.run(['ads', 'campaigns', 'list', '--account', account], {
        tty: true,
        env: { PLATFORM_BASE_URL: url, PLATFORM_TOKEN: 'fake-token' },
      });
      expect(result.code).toBe(1);
      expect(result.stderr).not.toContain('\u001b');
      expectOneLine(result.stderr);
      expect(result.stderr).toContain('BadRequest: no\\x1b[31m red\\x1b]0;title\\x07');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('one line, whatever a server says', () => {
  it('an API error message with line breaks in it is one line', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ code: 'BadRequest', message: 'first line\nsecond line\r\n  third' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const result = await user.run(['ads', 'campaigns', 'list', '--account', account], { env: { PLATFORM_BASE_URL: url, PLATFORM_TOKEN: 'fake-token' } });
      expect(result.code).toBe(1);
      expectOneLine(result.stderr);
      expect(result.stderr).toMatch(/^BadRequest: first line second line third/);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe('--debug redaction', () => {
  it('hides a credential header given with api -H, and shows an API error code', async () => {
    const result = await user.run(['api', `/v1/ads/${account}/campaigns/no-such-campaign/ad-groups`, '-H', 'X-Api-Key: do-not-print-me-4242', '--debug']);
    expect(result.code).toBe(1);
    expect(result.stderr).not.toContain('do-not-print-me-4242');
    expect(result.stderr).toMatch(/> x-api-key: \[REDACTED\]/);
    expect(result.stderr).toMatch(/"code":"NotFound"/);
  });
});
