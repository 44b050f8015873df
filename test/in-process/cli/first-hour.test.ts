// A new user's first hour: which profile a command uses and why, hints that work as
// printed, interrupts, error order, tables that fit, --query, view commands.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { firstAccount, sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { startCli } from '../../helpers/auth.js';
import { api } from '../../helpers/sandbox.js';
import { runInteractive, signedInUser, SF } from '../../helpers/rider.js';

let sandbox: Sandbox;
let account: string;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  account = (await firstAccount(new TestUser(sandbox))).ad_account_id;
});
afterAll(() => sandbox.close());

const ACCOUNT_FREE = ['ads', 'accounts', 'list', '--json'];

describe('profiles you can see', () => {
  it('a second login does not take over the default; auth switch does; auth status says which and why', async () => {
    const user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
    const first = await user.run(['auth', 'login', '--client-credentials']);
    expect(first.stderr).toMatch(/Profile local is the default\./);
    const second = await user.run([
      'auth',
      'login',
      '--client-credentials',
      '--profile',
      'eats',
      '--client-id',
      SANDBOX_DEMO_CLIENT_ID,
      '--scopes',
      'ads.campaigns.read',
    ]);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/The default profile is still local: use --profile eats, or `platform auth switch eats`/);
    expect((await user.run(ACCOUNT_FREE)).code).toBe(0);

    const status = async (env: Record<string, string> = {}, args: string[] = []) =>
      (
        JSON.parse((await user.run(['auth', 'status', '--json', ...args], { env })).stdout) as Array<{
          profile: string;
          active: boolean;
          chosen_by: string | null;
        }>
      ).find((p) => p.active);
    expect(await status()).toMatchObject({ profile: 'local', chosen_by: 'default' });
    expect(await status({ PLATFORM_PROFILE: 'eats' })).toMatchObject({ profile: 'eats', chosen_by: 'env' });
    expect(await status({}, ['--profile', 'eats'])).toMatchObject({ profile: 'eats', chosen_by: 'flag' });

    const switched = await user.run(['auth', 'switch', 'eats']);
    expect(switched.stderr).toMatch(/The default profile is now eats/);
    expect(await status()).toMatchObject({ profile: 'eats', chosen_by: 'default' });
    expect((await user.run(['auth', 'switch', 'nope'])).code).toBe(2);

    // Now the default lacks the ads scope: exit 4, the line names the profile and the exact command.
    const denied = await user.run(['ads', 'accounts', 'list']);
    expect(denied.code).toBe(4);
    expect(denied.stderr.trim()).toBe(
      'PermissionDenied: the token lacks scope ads.ad-accounts.read (profile eats); sign in with that scope: `platform auth login --client-credentials --scopes "ads.campaigns.read ads.ad-accounts.read" --profile eats`',
    );
    const fixed = await user.run(['auth', 'login', '--client-credentials', '--scopes', 'ads.campaigns.read ads.ad-accounts.read', '--profile', 'eats']);
    expect(fixed.code).toBe(0);
    expect((await user.run(ACCOUNT_FREE)).code).toBe(0);
  });

  it('--set-default makes a later login the default', async () => {
    const user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
    await user.run(['auth', 'login', '--client-credentials']);
    const result = await user.run(['auth', 'login', '--client-credentials', '--profile', 'other', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--set-default']);
    expect(result.stderr).toMatch(/Profile other is the default\./);
    expect(user.readConfig().default_profile).toBe('other');
  });

  it('auth logout on local removes its tokens only: the built-in sandbox credentials still work', async () => {
    const user = new TestUser(sandbox);
    expect((await user.run(ACCOUNT_FREE)).code).toBe(0);
    expect((await user.run(['auth', 'logout'])).code).toBe(0);
    expect((await user.run(ACCOUNT_FREE)).code).toBe(0);
  });

  it('auth status fits 80 columns on a terminal', async () => {
    const user = await signedInUser(sandbox, 'profile request');
    const table = await user.run(['auth', 'status'], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    for (const line of table.stdout.trimEnd().split('\n')) expect(line.length, line).toBeLessThanOrEqual(80);
  });
});

describe('hints that work', () => {
  it('a port in use is one line suggesting --port 0', async () => {
    const taken = http.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const result = await new TestUser(sandbox).run(['sandbox', 'serve', '--port', String(port)]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        `port ${port} on 127.0.0.1 is in use (another sandbox?): stop it, or run \`platform sandbox serve --port 0\` for a free port`,
      ]);
    } finally {
      taken.close();
    }
  });
});

describe('errors in the right order', () => {
  it('an unknown option is reported, with its suggestion, before a missing required option', async () => {
    const result = await new TestUser(sandbox).run(['ads', 'campaigns', 'list', '--acount', account]);
    expect(result.code).toBe(2);
    expect(result.stderr.split('\n')[0]).toBe("error: unknown option '--acount' (Did you mean --account?)");
    expect(result.stderr).toMatch(/Usage: platform ads campaigns list/);
  });

  it('a bad -o shows the usage of the command it was given to', async () => {
    const result = await new TestUser(sandbox).run(['ads', 'campaigns', 'list', '--account', account, '-o', 'yaml']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^Usage: platform ads campaigns list \[options\]$/m);
  });
});

describe('interrupts', () => {
  it('Ctrl-C at a prompt exits 130', async () => {
    const user = await signedInUser(sandbox, 'profile request');
    const result = await runInteractive(user, ['rider', 'request', '--product', 'Economy', '--from', SF.downtown, '--to', SF.mission], ['\u0003']);
    expect(result.code).toBe(130);
    expect(result.stderr).not.toMatch(/force closed/);
  });

  it('interrupting rider request --wait names the ride and how to follow or cancel it; get --wait follows it', async () => {
    const user = await signedInUser(sandbox, 'profile request request_receipt');
    const controller = new AbortController();
    const run = startCli(user, ['rider', 'request', '--product', 'Economy', '--from', SF.downtown, '--to', SF.mission, '--yes', '--wait'], {
      signal: controller.signal,
    });
    const [, id] = await run.waitForStderr(/ride ([\w-]+) is processing/);
    controller.abort(new Error('interrupted'));
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`Follow it with \`platform rider request get ${id} --wait\`, or cancel it with \`platform rider request cancel ${id}\``);
    expect((await api(sandbox.url, undefined, 'PUT', `/v1.2/sandbox/requests/${id}`, { status: 'completed' })).status).toBe(204);
    const followed = await user.run(['rider', 'request', 'get', id!, '--wait', '--json']);
    expect(followed.code, followed.stderr).toBe(0);
    expect(JSON.parse(followed.stdout)).toMatchObject({ request_id: id });
    expect(followed.stderr, JSON.stringify(followed)).toMatch(/completed/);
  });
});

describe('tables that fit, and sentences for one item', () => {
  it('fits an ad-group table into 80 columns on a terminal, wrapping rather than cutting; piped CSV keeps every value whole', async () => {
    const user = new TestUser(sandbox);
    const campaigns = await user.json<Array<{ campaign_id: string; ad_groups: unknown[] }>>(['ads', 'campaigns', 'list', '--account', account]);
    const campaign = campaigns.find((c) => c.ad_groups.length > 0)!.campaign_id;
    const table = await user.run(['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaign], {
      tty: true,
      columns: 80,
      env: { NO_COLOR: '1' },
    });
    const lines = table.stdout.trimEnd().split('\n');
    for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(80);
    expect(table.stdout).not.toContain('…');
    const csv = await user.run(['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaign, '-o', 'csv']);
    expect(csv.stdout).not.toContain('…');
  });

  it('a single create from flags says one sentence on a terminal, and stays JSON when piped', async () => {
    const user = new TestUser(sandbox);
    const args = ['ads', 'campaigns', 'create', '--account', account, '--name', 'Spring promo', '--budget', '50', '--currency', 'USD'];
    const tty = await user.run(args, { tty: true });
    expect(tty.stdout).toMatch(/^Created campaign [0-9a-f-]{36} "Spring promo"\n$/);
    const piped = await user.run(args);
    expect(JSON.parse(piped.stdout)).toEqual([expect.objectContaining({ line: 1, result: 'ok' })]);
  });
});

describe('--query', () => {
  it('applies JMESPath after all pages are merged, in every format', async () => {
    const user = new TestUser(sandbox);
    const base = ['ads', 'campaigns', 'list', '--account', account, '--all', '--page-limit', '3'];
    const all = await user.json<Array<{ campaign_id: string; budget?: { unit: string } }>>([...base]);
    const weekly = all.filter((c) => c.budget?.unit === 'BUDGET_UNIT_WEEKLY').map((c) => c.campaign_id);
    const query = "[?budget.unit=='BUDGET_UNIT_WEEKLY'].campaign_id";
    expect(JSON.parse((await user.run([...base, '--query', query, '--json'])).stdout)).toEqual(weekly);
    expect(
      (await user.run([...base, '--query', query, '-o', 'ndjson'])).stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string),
    ).toEqual(weekly);
    expect((await user.run([...base, '--query', `length(@)`, '--json'])).stdout.trim()).toBe(String(all.length));
    const csv = (await user.run([...base, '--query', "[?budget.unit=='BUDGET_UNIT_WEEKLY'].{id: campaign_id}", '-o', 'csv'])).stdout.trim().split('\n');
    expect(csv).toEqual(['id', ...weekly]);
    const table = await user.run([...base, '--query', query], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.stdout.split('\n')[0]).toBe('VALUE');
  });

  it('a bad expression exits 2 before anything is sent', async () => {
    const before = sandbox.stats.apiRequests;
    const result = await new TestUser(sandbox).run(['ads', 'campaigns', 'list', '--account', account, '--query', '[?']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--query: not a JMESPath expression/);
    expect(sandbox.stats.apiRequests).toBe(before);
  });
});

describe('view commands', () => {
  it('show every field readably, dayparting Monday first, and the API object with -o json', async () => {
    const user = new TestUser(sandbox);
    const campaigns = await user.json<Array<{ campaign_id: string; name: string; ad_groups: Array<{ ad_group_id: string }> }>>([
      'ads',
      'campaigns',
      'list',
      '--account',
      account,
    ]);
    const campaign = campaigns.find((c) => c.ad_groups.length > 0)!;
    const view = await user.run(['ads', 'campaigns', 'view', campaign.campaign_id, '--account', account], { tty: true, env: { NO_COLOR: '1' } });
    expect(view.stdout).toMatch(new RegExp(`^ID: +${campaign.campaign_id}$`, 'm'));
    expect(view.stdout).toMatch(/^Budget: +\d+\.\d\d [A-Z]{3} (daily|weekly|fixed)$/m);
    const group = campaign.ad_groups[0]!.ad_group_id;
    const patched = await user.run([
      'ads',
      'ad-groups',
      'patch',
      '--account',
      account,
      '--campaign',
      campaign.campaign_id,
      '--ad-group-id',
      group,
      '--daypart',
      'sat,sun=10:00-12:00',
    ]);
    expect(patched.code, patched.stderr).toBe(0);
    const groupView = await user.run(['ads', 'ad-groups', 'view', group, '--account', account, '--campaign', campaign.campaign_id], {
      tty: true,
      env: { NO_COLOR: '1' },
    });
    expect(groupView.stdout).toMatch(
      /^Dayparting:\n {2}Monday: off\n {2}Tuesday: off\n {2}Wednesday: off\n {2}Thursday: off\n {2}Friday: off\n {2}Saturday: 10:00-12:00\n {2}Sunday: 10:00-12:00$/m,
    );
    expect(groupView.stdout).toMatch(/^Bidding: +(automatic|manual, .+|goal-based, .+)$/m);
    const json = JSON.parse(
      (await user.run(['ads', 'ad-groups', 'view', group, '--account', account, '--campaign', campaign.campaign_id, '--json'])).stdout,
    ) as { ad_group_id: string };
    expect(json.ad_group_id).toBe(group);
    // -o csv: the list's columns and values, so it reads back as the list's CSV does.
    for (const [noun, id, scope] of [
      ['campaigns', campaign.campaign_id, []],
      ['ad-groups', group, ['--campaign', campaign.campaign_id]],
    ] as const) {
      const viewed = await user.run(['ads', noun, 'view', id, '--account', account, ...scope, '-o', 'csv']);
      const listed = await user.run(['ads', noun, 'list', '--id', id, '--account', account, ...scope, '-o', 'csv']);
      expect(viewed.code, viewed.stderr).toBe(0);
      expect(viewed.stdout.split('\n')[1]).toContain(id);
      expect(viewed.stdout).toBe(listed.stdout);
    }
    const missing = await user.run(['ads', 'campaigns', 'view', 'no-such-campaign', '--account', account]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^NotFound: campaign no-such-campaign not found in account/);
  });
});

describe('api output', () => {
  it('writes compact JSON with a final newline when piped, pages merged', async () => {
    const result = await new TestUser(sandbox).run(['api', `/v1/ads/${account}/campaigns`, '--paginate', '-F', 'page_limit=5']);
    expect(result.code).toBe(0);
    expect(result.stdout.endsWith(']\n')).toBe(true);
    expect(result.stdout.split('\n')).toHaveLength(2);
    expect((JSON.parse(result.stdout) as unknown[]).length).toBeGreaterThan(5);
  });
});
