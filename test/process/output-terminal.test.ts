// Tables as a person sees them on an 80-column terminal (a real pseudo-terminal, the built
// CLI): every id, code and column name whole, whatever gives way; COLUMNS obeyed; text from
// a server shown escaped instead of acting on the terminal.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { firstAccount, sandboxOnFreePort, TestUser } from '../helpers/cli.js';
import { runOnPty } from '../helpers/pty.js';
import { scaled } from '../helpers/time-scale.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
  account = (await firstAccount(user)).ad_account_id;
});
afterAll(() => sandbox.close());

const envOf = (extra: Record<string, string> = {}): Record<string, string> => ({
  PATH: process.env.PATH ?? '',
  HOME: user.configDir,
  PLATFORM_CONFIG_DIR: user.configDir,
  PLATFORM_BASE_URL: sandbox.url,
  NO_COLOR: '1',
  ...extra,
});

async function onTerminal(args: string[], extraEnv: Record<string, string> = {}): Promise<string> {
  const { code, output } = await runOnPty(args, envOf(extraEnv), { columns: 80 }).done;
  expect(code, output).toBe(0);
  return output;
}

/** Each of `words` occurs whole in `output`: not followed by an ellipsis, nor by more of a longer word. */
function expectWhole(output: string, words: readonly string[]): void {
  expect(words.length).toBeGreaterThan(0);
  for (const word of words) {
    const escaped = word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    expect(output, `${word} whole in:\n${output}`).toMatch(new RegExp(`(^|[\\s|])${escaped}(?=\\s|$)`, 'm'));
  }
}

const linesOf = (output: string) => output.trimEnd().split('\n');

describe('tables on an 80-column terminal', () => {
  it('ads accounts list, campaigns list, ad-groups list and ads list show every id whole and fit the width', { timeout: scaled(60_000) }, async () => {
    const accounts = await user.json<Array<{ ad_account_id: string }>>(['ads', 'accounts', 'list']);
    const campaigns = await user.json<Array<{ campaign_id: string; ad_groups: Array<{ ad_group_id: string }> }>>([
      'ads',
      'campaigns',
      'list',
      '--account',
      account,
    ]);
    const campaign = campaigns.find((c) => c.ad_groups.length > 0)!;
    const adGroup = campaign.ad_groups[0]!.ad_group_id;
    const ads = await user.json<Array<{ ad_id: string }>>([
      'ads',
      'ads',
      'list',
      '--account',
      account,
      '--campaign',
      campaign.campaign_id,
      '--ad-group',
      adGroup,
    ]);
    const cases: Array<[string[], string[]]> = [
      [['ads', 'accounts', 'list'], accounts.map((a) => a.ad_account_id)],
      [['ads', 'campaigns', 'list', '--account', account], campaigns.map((c) => c.campaign_id)],
      [['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaign.campaign_id], campaign.ad_groups.map((g) => g.ad_group_id)],
      [['ads', 'ads', 'list', '--account', account, '--campaign', campaign.campaign_id, '--ad-group', adGroup], ads.map((a) => a.ad_id)],
    ];
    for (const [args, ids] of cases) {
      const output = await onTerminal(args);
      expectWhole(output, ids);
      // These fit 80 columns without cutting an id: what gives way is names and secondary columns.
      for (const line of linesOf(output)) expect(line.length, `${args.join(' ')}:\n${output}`).toBeLessThanOrEqual(80);
    }
  });

  it('-o wide shows the columns a narrow table leaves out, none cut', { timeout: scaled(30_000) }, async () => {
    const campaigns = await user.json<Array<{ campaign_id: string; name: string; updated_at: string }>>(['ads', 'campaigns', 'list', '--account', account]);
    const output = await onTerminal(['ads', 'campaigns', 'list', '--account', account, '-o', 'wide']);
    expect(linesOf(output)[0]).toMatch(/\bUPDATED\b/);
    expect(output).not.toContain('…');
    for (const c of campaigns) expect(output).toContain(`${c.campaign_id}  ${c.name}`);
  });

  it('COLUMNS, when set, is the width: COLUMNS=200 shows the names whole', { timeout: scaled(30_000) }, async () => {
    const campaigns = await user.json<Array<{ name: string }>>(['ads', 'campaigns', 'list', '--account', account]);
    const narrow = await onTerminal(['ads', 'campaigns', 'list', '--account', account]);
    // Narrower, the names wrap onto a second line of their row (nothing is cut).
    expect(narrow).not.toContain('…');
    const wide = await onTerminal(['ads', 'campaigns', 'list', '--account', account], { COLUMNS: '200' });
    expect(wide).not.toContain('…');
    for (const c of campaigns) expect(wide).toContain(c.name);
    expect(Math.max(...linesOf(wide).map((line) => line.length))).toBeGreaterThan(80);
    expect(linesOf(narrow).length).toBeGreaterThan(linesOf(wide).length);
  });

  it('auth status shows the profile name and why it is used whole', { timeout: scaled(30_000) }, async () => {
    const profile = 'staging-eu-west-analytics';
    const login = await user.run(['auth', 'login', '--client-credentials', '--profile', profile, '--client-id', SANDBOX_DEMO_CLIENT_ID]);
    expect(login.code, login.stderr).toBe(0);
    const output = await onTerminal(['auth', 'status', '--profile', profile]);
    expect(output).toContain(`* ${profile} (--profile)`);
  });

  it('reports types shows every type and column name whole, and so does one type', { timeout: scaled(30_000) }, async () => {
    const types = await user.json<Array<{ name: string; columns: Array<{ name: string; kind: string }> }>>(['ads', 'reports', 'types']);
    const output = await onTerminal(['ads', 'reports', 'types']);
    expectWhole(
      output,
      types.map((t) => t.name),
    );
    expectWhole(
      output,
      types.flatMap((t) => t.columns.filter((c) => c.kind === 'dimension').map((c) => c.name)),
    );
    const one = types[0]!;
    const columns = await onTerminal(['ads', 'reports', 'types', '--type', one.name]);
    expectWhole(
      columns,
      one.columns.map((c) => c.name),
    );
  });

  it("a dry run's table shows each id and every word of its changes", { timeout: scaled(30_000) }, async () => {
    const campaigns = await user.json<Array<{ campaign_id: string; name: string }>>(['ads', 'campaigns', 'list', '--account', account, '--limit', '3']);
    const csv = ['campaign_id,name,status', ...campaigns.map((c, i) => `${c.campaign_id},${c.name} renamed with a fairly long new name ${i},paused`)].join(
      '\n',
    );
    const file = path.join(user.configDir, 'dry.csv');
    fs.writeFileSync(file, `${csv}\n`);
    const planned = await user.json<Array<{ id: string; changes: string }>>([
      'ads',
      'campaigns',
      'patch',
      '--account',
      account,
      '--from-csv',
      file,
      '--dry-run',
    ]);
    const output = await onTerminal(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file, '--dry-run']);
    expectWhole(
      output,
      planned.map((p) => p.id),
    );
    // The changes wrap between words: nothing is cut, every word of the new names is there.
    expect(output).not.toContain('…');
    const words = campaigns.flatMap((c, i) => `${c.name} renamed with a fairly long new name ${i} paused`.split(' '));
    for (const word of words) expect(output).toContain(word);
  });
});

describe('text from a server, on a terminal', () => {
  // Names the API might send: a bidi override, a C1 CSI (recolours as ESC [ does), a newline.
  const names = ['Sale \u202egnp.exe', 'Red \u009b31m text', 'Two\nlines'];
  let api: { url: string; close: () => Promise<void> };
  beforeAll(async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          campaigns: names.map((name, i) => ({ campaign_id: `c-${i}`, name, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' })),
        }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    api = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
  });
  afterAll(() => api.close());

  const fakeEnv = () => ({ PLATFORM_BASE_URL: api.url, PLATFORM_TOKEN: 'fake-token' });
  const unsafe = /[\u0080-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

  it('a table shows bidi and C1 characters and newlines escaped, one line per campaign', { timeout: scaled(30_000) }, async () => {
    const output = await onTerminal(['ads', 'campaigns', 'list', '--account', account], fakeEnv());
    expect(output).not.toMatch(unsafe);
    expect(output).toContain('Sale \\u202egnp.exe');
    expect(output).toContain('Red \\x9b31m text');
    expect(output).toContain('Two\\nlines');
    expect(linesOf(output)).toHaveLength(1 + names.length);
  });

  it('-o json shows them as JSON escapes, meaning the same', { timeout: scaled(30_000) }, async () => {
    const output = await onTerminal(['ads', 'campaigns', 'list', '--account', account, '-o', 'json'], fakeEnv());
    expect(output).not.toMatch(unsafe);
    expect(output).toContain('"Sale \\u202egnp.exe"');
    expect(output).toContain('"Red \\u009b31m text"');
    expect((JSON.parse(output) as Array<{ name: string }>).map((c) => c.name)).toEqual(names);
  });

  it('-o csv writes a formula-like name with a leading quote on a terminal', { timeout: scaled(30_000) }, async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({ campaigns: [{ campaign_id: 'c-1', name: '=HYPERLINK("http://x","y")', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] }),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const output = await onTerminal(['ads', 'campaigns', 'list', '--account', account, '-o', 'csv'], {
        PLATFORM_BASE_URL: url,
        PLATFORM_TOKEN: 'fake-token',
      });
      expect(output).toContain(`c-1,"'=HYPERLINK(""http://x"",""y"")"`);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
