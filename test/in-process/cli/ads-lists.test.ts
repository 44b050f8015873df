import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

/** Walks pages by hand with --page-token, as a user resuming would. */
async function walkByHand(args: string[], idKey: string): Promise<string[]> {
  const ids: string[] = [];
  let token: string | undefined;
  for (let pages = 0; pages < 100; pages++) {
    const result = await user.run([...args, '--page-limit', '7', '--json', ...(token ? ['--page-token', token] : [])]);
    expect(result.code).toBe(0);
    ids.push(...(JSON.parse(result.stdout) as Array<Record<string, string>>).map((row) => row[idKey]!));
    token = /--page-token (\S+)/.exec(result.stderr)?.[1];
    if (!token) return ids;
  }
  throw new Error('pagination did not end');
}

describe('ads lists over real HTTP', () => {
  it('lists only active ad accounts', async () => {
    const accounts = await user.json<Array<{ ad_account_id: string; name: string }>>(['ads', 'accounts', 'list']);
    expect(accounts.length).toBeGreaterThanOrEqual(2);
    expect(new Set(accounts.map((a) => a.ad_account_id)).size).toBe(accounts.length);
  });

  it.each([
    ['stores', ['ads', 'stores', 'list'], 'id'],
    ['campaigns', ['ads', 'campaigns', 'list'], 'campaign_id'],
  ])('--all returns exactly the union of the pages of %s, no duplicates', async (_name, command, idKey) => {
    const byHand = await walkByHand([...command, '--account', account], idKey);
    expect(byHand.length).toBeGreaterThan(7 * 2);
    const all = await user.json<Array<Record<string, string>>>([...command, '--account', account, '--all']);
    const allIds = all.map((row) => row[idKey]);
    expect(allIds).toEqual(byHand);
    expect(new Set(allIds).size).toBe(allIds.length);
  });

  it('prints the first page by default and says how to get more', async () => {
    const result = await user.run(['ads', 'campaigns', 'list', '--account', account, '--page-limit', '5', '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(5);
    expect(result.stderr).toMatch(/--all, or --page-token \S+/);
  });

  it('--limit stops after n items across pages', async () => {
    const rows = await user.json<unknown[]>(['ads', 'campaigns', 'list', '--account', account, '--limit', '12', '--page-limit', '5']);
    expect(rows).toHaveLength(12);
  });

  it('filters campaigns, ad groups and ads by id, and pages ad groups and ads', async () => {
    const campaigns = await user.json<Array<{ campaign_id: string; ad_groups: Array<{ ad_group_id: string }> }>>([
      'ads',
      'campaigns',
      'list',
      '--account',
      account,
      '--all',
    ]);
    const wanted = [campaigns[3]!.campaign_id, campaigns[9]!.campaign_id];
    const filtered = await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', account, '--id', wanted.join(',')]);
    expect(filtered.map((c) => c.campaign_id).sort()).toEqual([...wanted].sort());

    const withGroups = campaigns.find((c) => c.ad_groups.length >= 2)!;
    const groups = await user.json<Array<{ ad_group_id: string; campaign_id: string }>>([
      'ads',
      'ad-groups',
      'list',
      '--account',
      account,
      '--campaign',
      withGroups.campaign_id,
      '--all',
    ]);
    expect(groups.map((g) => g.ad_group_id).sort()).toEqual(withGroups.ad_groups.map((g) => g.ad_group_id).sort());
    const pagedGroups = await walkByHand(['ads', 'ad-groups', 'list', '--account', account, '--campaign', withGroups.campaign_id], 'ad_group_id');
    expect(pagedGroups).toEqual(groups.map((g) => g.ad_group_id));
    const oneGroup = await user.json<Array<{ ad_group_id: string }>>([
      'ads',
      'ad-groups',
      'list',
      '--account',
      account,
      '--campaign',
      withGroups.campaign_id,
      '--id',
      groups[1]!.ad_group_id,
    ]);
    expect(oneGroup.map((g) => g.ad_group_id)).toEqual([groups[1]!.ad_group_id]);

    // Find an ad group with ads and filter them.
    for (const campaign of campaigns) {
      for (const summary of campaign.ad_groups) {
        const ads = await user.json<Array<{ ad_id: string; ad_group_id: string }>>([
          'ads',
          'ads',
          'list',
          '--account',
          account,
          '--campaign',
          campaign.campaign_id,
          '--ad-group',
          summary.ad_group_id,
        ]);
        if (ads.length < 2) continue;
        expect(ads.every((ad) => ad.ad_group_id === summary.ad_group_id)).toBe(true);
        const one = await user.json<Array<{ ad_id: string }>>([
          'ads',
          'ads',
          'list',
          '--account',
          account,
          '--campaign',
          campaign.campaign_id,
          '--ad-group',
          summary.ad_group_id,
          '--id',
          ads[1]!.ad_id,
        ]);
        expect(one).toEqual([ads[1]]);
        return;
      }
    }
    throw new Error('the seed has no ad group with two ads');
  });

  it('prints a table with money as a decimal and its currency on a terminal, CSV and NDJSON on request', async () => {
    const table = await user.run(['ads', 'campaigns', 'list', '--account', account], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+NAME\s+STATUS\s+BUDGET/);
    expect(table.stdout).toMatch(/\d+\.\d{2} [A-Z]{3}/);
    expect(table.stdout).not.toMatch(/\u001b\[/);
    expect(table.stdout.split('\n').filter((line) => / $/.test(line))).toEqual([]);

    const csv = await user.run(['ads', 'campaigns', 'list', '--account', account, '-o', 'csv', '--limit', '3']);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe('campaign_id,name,status,budget,currency,budget_unit');
    expect(lines).toHaveLength(4);

    const ndjson = await user.run(['ads', 'campaigns', 'list', '--account', account, '-o', 'ndjson', '--limit', '3']);
    const records = ndjson.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { campaign_id: string });
    expect(records).toHaveLength(3);
    expect(records[0]!.campaign_id).toBe(lines[1]!.split(',')[0]);
  });

  it('ends with a clear NotFound line for an unknown account', async () => {
    const result = await user.run(['ads', 'campaigns', 'list', '--account', 'no-such-account']);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(/^NotFound: .*no-such-account/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
