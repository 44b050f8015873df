// One vocabulary, never silent (#43): JSON and --query read the API's own items, whose names
// differ from the table's (STATUS `active` is `configured_status: CAMPAIGN_CONFIGURED_STATUS_ACTIVE`).
// A --query or --json FIELD naming a field the items lack is refused before anything is sent,
// naming the field meant; --json FIELDS picks fields (gh's flag); --status filters lists.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let campaign: string;

interface Campaign {
  campaign_id: string;
  name: string;
  configured_status: string;
}

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  const campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--all']);
  campaign = campaigns[0]!.campaign_id;
});
afterAll(() => sandbox.close());

const list = (...args: string[]) => ['ads', 'campaigns', 'list', '--account', account, ...args];

/** The sandbox's API requests made by `args` (a refusal makes none). */
async function requestsOf(args: string[]) {
  const before = sandbox.stats.apiRequests;
  const result = await user.run(args);
  return { ...result, requests: sandbox.stats.apiRequests - before };
}

describe('--query names the API fields', () => {
  it("the trap: [?status=='active'] is refused (exit 2, stdout empty, nothing sent), naming the STATUS column's field", async () => {
    const result = await requestsOf(list('--all', '--query', "[?status=='active'].campaign_id", '-o', 'text'));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('`status` is not a field of campaigns: the STATUS column is `configured_status`');
    expect(result.requests).toBe(0);
  });

  it('the query written with the API field answers', async () => {
    const all = await user.json<Campaign[]>(list('--all'));
    const active = all.filter((c) => c.configured_status === 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE').map((c) => c.campaign_id);
    expect(active.length).toBeGreaterThan(0);
    const result = await user.run(list('--query', "[?configured_status=='CAMPAIGN_CONFIGURED_STATUS_ACTIVE'].campaign_id", '-o', 'text'));
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual(active);
  });

  it.each([
    ['a misspelt field: the closest one', '[].nmae', '`nmae` is not a field of campaigns: did you mean `name`?'],
    ['a nested field', '[0].budget.total.amount', "`amount` is not a field of campaigns' budget.total: did you mean `budget.total.amount_e5`?"],
    ['inside a function', 'max_by(@, &to_number(budget.total.amount_e5)).bugdet', 'did you mean `budget`?'],
  ])('%s', async (_what, query, message) => {
    const result = await requestsOf(list('--query', query));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(message);
    expect(result.requests).toBe(0);
  });

  it('ad groups: `bid` is the BID column, an API path', async () => {
    const result = await requestsOf(['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaign, '--query', '[].bid']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('`bid` is not a field of ad groups: the BID column is `bidding.manual.bid_amount.amount_e5`');
    expect(result.requests).toBe(0);
  });
});

describe('--json FIELDS (gh)', () => {
  it('--json campaign_id,name prints only those fields', async () => {
    const result = await user.run(list('-L', '3', '--json', 'campaign_id,name'));
    expect(result.code, result.stderr).toBe(0);
    const rows = JSON.parse(result.stdout) as Array<Record<string, unknown>>;
    expect(rows).toHaveLength(3);
    for (const row of rows) expect(Object.keys(row)).toEqual(['campaign_id', 'name']);
  });

  it('--json=FIELDS, and before the command', async () => {
    const after = await user.run(list('-L', '2', '--json=name'));
    const before = await user.run(['--json', 'name', ...list('-L', '2')]);
    expect(after.code, after.stderr).toBe(0);
    expect(before.stdout).toBe(after.stdout);
    expect(Object.keys((JSON.parse(after.stdout) as object[])[0]!)).toEqual(['name']);
  });

  it('bare --json stays -o json, even before an argument', async () => {
    const bare = await user.run(list('-L', '1', '--json'));
    expect(Object.keys((JSON.parse(bare.stdout) as object[])[0]!)).toContain('configured_status');
    const view = await user.run(['ads', 'campaigns', 'view', '--account', account, '--json', campaign]);
    expect(view.code, view.stderr).toBe(0);
    expect((JSON.parse(view.stdout) as Campaign).campaign_id).toBe(campaign);
  });

  it('an unknown field is refused (exit 2, nothing sent), listing the fields', async () => {
    const result = await requestsOf(list('--json', 'campaign_id,status'));
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(
      /^--json: `status` is not a field of campaigns: the STATUS column is `configured_status`.*; the fields of campaigns: campaign_id, name, .*configured_status/m,
    );
    expect(result.requests).toBe(0);
  });

  it('a view: only the fields named; an unknown one refused with the fields it has', async () => {
    const view = await user.run(['ads', 'campaigns', 'view', campaign, '--account', account, '--json', 'name,configured_status']);
    expect(view.code, view.stderr).toBe(0);
    expect(Object.keys(JSON.parse(view.stdout) as object)).toEqual(['name', 'configured_status']);
    const bad = await user.run(['ads', 'campaigns', 'view', campaign, '--account', account, '--json', 'nme']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toMatch(/^--json: `nme` is not a field of campaigns: did you mean `name`\?; the fields of campaigns: campaign_id, name, /m);
    // --query on one item reads its fields, checked the same way.
    const query = await requestsOf(['ads', 'campaigns', 'view', campaign, '--account', account, '--query', 'status']);
    expect([query.code, query.stdout, query.requests]).toEqual([2, '', 0]);
    expect(query.stderr).toContain('`status` is not a field of campaigns: the STATUS column is `configured_status`');
  });
});

describe('--status', () => {
  const statusOf = (c: Campaign) => c.configured_status.replace('CAMPAIGN_CONFIGURED_STATUS_', '').toLowerCase();

  it('--all --status paused lists exactly the paused campaigns', async () => {
    const all = await user.json<Campaign[]>(list('--all'));
    const paused = all.filter((c) => statusOf(c) === 'paused');
    expect(paused.length).toBeGreaterThan(0);
    expect(paused.length).toBeLessThan(all.length);
    const listed = await user.json<Campaign[]>(list('--all', '--status', 'paused'));
    expect(listed.map((c) => c.campaign_id)).toEqual(paused.map((c) => c.campaign_id));
  });

  it('--limit N --status paused: the first N paused, read on past pages of active ones', async () => {
    const all = await user.json<Campaign[]>(list('--all'));
    const paused = all.filter((c) => statusOf(c) === 'paused').slice(0, 3);
    const listed = await user.json<Campaign[]>(list('--limit', '3', '--page-limit', '2', '--status', 'paused'));
    expect(listed.map((c) => c.campaign_id)).toEqual(paused.map((c) => c.campaign_id));
  });

  it('a table shows only the status asked for', async () => {
    const table = await user.run(list('--status', 'active', '-o', 'csv'));
    expect(table.code, table.stderr).toBe(0);
    const statuses = table.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[2]);
    expect(statuses.length).toBeGreaterThan(0);
    expect(new Set(statuses)).toEqual(new Set(['active']));
  });

  it('ad groups take it too; another status is refused', async () => {
    const groups = await user.json<Array<{ configured_status: string }>>(['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaign, '--all']);
    const paused = await user.json<Array<{ configured_status: string }>>([
      'ads',
      'ad-groups',
      'list',
      '--account',
      account,
      '--campaign',
      campaign,
      '--all',
      '--status',
      'paused',
    ]);
    expect(paused).toEqual(groups.filter((g) => g.configured_status === 'AD_GROUP_CONFIGURED_STATUS_PAUSED'));
    const bad = await user.run(list('--status', 'deleted'));
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("option '--status <status>' argument 'deleted' is invalid. Allowed choices are active, paused.");
  });

  it("ads: an ad has no status of its own, so its ad group's stands for it", async () => {
    const [group] = await user.json<Array<{ ad_group_id: string; configured_status: string }>>([
      'ads',
      'ad-groups',
      'list',
      '--account',
      account,
      '--campaign',
      campaign,
      '-L',
      '1',
    ]);
    const ads = ['ads', 'ads', 'list', '--account', account, '--campaign', campaign, '--ad-group', group!.ad_group_id, '--all'];
    const every = await user.json<unknown[]>(ads);
    const [its, other] = group!.configured_status.endsWith('_ACTIVE') ? ['active', 'paused'] : ['paused', 'active'];
    expect(await user.json<unknown[]>([...ads, '--status', its])).toEqual(every);
    const none = await user.run([...ads, '--status', other, '--json']);
    expect([none.code, none.stdout]).toEqual([0, '[]\n']);
    expect(none.stderr).toBe(`Ad group ${group!.ad_group_id} is not ${other}, so none of its ads are\n`);
  });
});
