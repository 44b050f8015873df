import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

async function campaign(id: string): Promise<Campaign> {
  const [found] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--id', id]);
  return found!;
}

describe('ads writes through the CLI', () => {
  it('creates a campaign with an exact budget, then lists it', async () => {
    const [created] = await user.json<Result[]>([
      'ads',
      'campaigns',
      'create',
      '--account',
      account,
      '--name',
      'Spring «promo», 2026',
      '--budget',
      '12.34',
      '--currency',
      'usd',
      '--budget-unit',
      'weekly',
      '--status',
      'paused',
    ]);
    expect(created).toMatchObject({ result: 'ok', line: 1 });
    const listed = await campaign(created!.id);
    expect(listed).toMatchObject({
      name: 'Spring «promo», 2026',
      configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '1234000', currency_code: 'USD' } },
    });
  });

  it('patches name, status and budget, then lists the change', async () => {
    const [target] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--limit', '1']);
    const result = await user.run(
      [
        'ads',
        'campaigns',
        'patch',
        '--account',
        account,
        '--campaign-id',
        target!.campaign_id,
        '--status',
        'paused',
        '--budget-e5',
        '7550000',
        '--currency',
        'USD',
        '--name',
        'Renamed',
      ],
      { tty: true, env: { NO_COLOR: '1' } },
    );
    expect(result.code).toBe(0);
    // One item from flags, on a terminal: a sentence, not a batch table.
    expect(result.stdout).toBe(`Updated campaign ${target!.campaign_id} "Renamed"\n`);
    expect(await campaign(target!.campaign_id)).toMatchObject({
      name: 'Renamed',
      configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '7550000' } },
    });
    expect(sandbox.stats.writesById.get(target!.campaign_id)).toBe(1);
  });

  it('reports the one failed item of a batch and still applies the others (exit 1)', async () => {
    const campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--limit', '2']);
    const dir = tempDir();
    const file = path.join(dir, 'changes.ndjson');
    fs.writeFileSync(
      file,
      [
        JSON.stringify({ campaign_id: campaigns[0]!.campaign_id, name: 'Batch A' }),
        JSON.stringify({ campaign_id: 'does-not-exist', name: 'Batch B' }),
        JSON.stringify({ campaign_id: campaigns[1]!.campaign_id, name: 'Batch C' }),
      ].join('\n'),
    );
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', file, '--json']);
    expect(result.code).toBe(1);
    const rows = JSON.parse(result.stdout) as Result[];
    expect(rows.map((r) => [r.line, r.result])).toEqual([
      [1, 'ok'],
      [2, 'failed'],
      [3, 'ok'],
    ]);
    expect(rows[1]).toMatchObject({ id: 'does-not-exist', error_code: 'NotFound' });
    expect(rows[1]!.error_message).toContain('does-not-exist');
    expect(result.stderr).toMatch(/^3 rows: 2 ok, 1 failed, 0 invalid, 0 skipped in /m);
    expect((await campaign(campaigns[0]!.campaign_id)).name).toBe('Batch A');
    expect((await campaign(campaigns[1]!.campaign_id)).name).toBe('Batch C');
  });

  it('creates campaigns from JSON on stdin', async () => {
    const body = {
      campaigns: [
        { name: 'From stdin 1', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' },
        { name: 'From stdin 2', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' },
      ],
    };
    const result = await user.run(['ads', 'campaigns', 'create', '--account', account, '--from-json', '-', '--json'], { stdin: JSON.stringify(body) });
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.stdout) as Result[];
    expect(rows).toHaveLength(2);
    expect((await campaign(rows[1]!.id)).name).toBe('From stdin 2');
  });

  it('creates an ad group with every spec 2.5 field from flags, patches it, and adds an ad', async () => {
    const stores = await user.json<Array<{ id: string }>>(['ads', 'stores', 'list', '--account', account, '--limit', '2']);
    const [created] = await user.json<Result[]>(['ads', 'campaigns', 'create', '--account', account, '--name', 'With groups']);
    const campaignId = created!.id;
    const [group] = await user.json<Result[]>([
      'ads',
      'ad-groups',
      'create',
      '--account',
      account,
      '--campaign',
      campaignId,
      '--name',
      'Lunch rush',
      '--ad-product',
      'search',
      '--status',
      'paused',
      '--budget',
      '20',
      '--currency',
      'USD',
      '--budget-unit',
      'weekly',
      '--bid',
      '0.55',
      '--start',
      '2026-12-01T00:00:00Z',
      '--end',
      '2027-01-01T00:00:00Z',
      '--keywords',
      'pizza,pasta',
      '--match-type',
      'broad',
      '--platform-one',
      '--target-operator',
      'OR',
      '--store-ids',
      stores.map((s) => s.id).join(','),
      '--daypart',
      'mon-fri=11:00-14:00',
      '--daypart',
      'sat,sun=10:00-24:00',
    ]);
    expect(group!.result).toBe('ok');
    const [listed] = await user.json<Array<Record<string, any>>>(['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaignId]);
    expect(listed).toMatchObject({
      ad_group_id: group!.id,
      name: 'Lunch rush',
      ad_product: 'SPONSORED_SEARCH',
      configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED',
      schedule: { start_time: '2026-12-01T00:00:00Z', end_time: '2027-01-01T00:00:00Z' },
      budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '2000000', currency_code: 'USD' } },
      bidding: { manual: { bid_amount: { amount_e5: '55000', currency_code: 'USD' } } },
      targeting: {
        negation: false,
        operator: 'OR',
        criteria: [{ keyword_targeting: { keywords: ['pizza', 'pasta'], match_type: 'MATCH_TYPE_BROAD' } }, { platform_one: {} }],
      },
      subjects: { stores: { store_ids: stores.map((s) => s.id) } },
    });
    const days = listed!.dayparting_schedule.dayparting_day_schedule;
    expect(days).toHaveLength(7);
    expect(days[0].intervals).toEqual([{ start_time: { hour: 11, minute: 0 }, end_time: { hour: 14, minute: 0 } }]);
    expect(days[6].intervals).toEqual([{ start_time: { hour: 10, minute: 0 }, end_time: { hour: 24, minute: 0 } }]);

    const patched = await user.run([
      'ads',
      'ad-groups',
      'patch',
      '--account',
      account,
      '--campaign',
      campaignId,
      '--ad-group-id',
      group!.id,
      '--auto-bid',
      '--status',
      'active',
    ]);
    expect(patched.code).toBe(0);
    const [after] = await user.json<Array<Record<string, any>>>([
      'ads',
      'ad-groups',
      'list',
      '--account',
      account,
      '--campaign',
      campaignId,
      '--id',
      group!.id,
    ]);
    expect(after).toMatchObject({ bidding: { auto: {} }, configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE', name: 'Lunch rush' });

    const [ad] = await user.json<Result[]>([
      'ads',
      'ads',
      'create',
      '--account',
      account,
      '--campaign',
      campaignId,
      '--ad-group',
      group!.id,
      '--name',
      'Downtown',
    ]);
    const ads = await user.json<Array<{ ad_id: string; name: string }>>([
      'ads',
      'ads',
      'list',
      '--account',
      account,
      '--campaign',
      campaignId,
      '--ad-group',
      group!.id,
    ]);
    expect(ads).toEqual([{ ad_id: ad!.id, ad_group_id: group!.id, campaign_id: campaignId, name: 'Downtown' }]);
  });

  it('ends with exit 4 and the login command that grants the write scope when the token lacks it', async () => {
    const reader = new TestUser(sandbox);
    const login = await reader.run(['auth', 'login', '--client-credentials', '--scopes', 'ads.campaigns.read ads.ad-accounts.read']);
    expect(login.code).toBe(0);
    const before = sandbox.stats.writesById.size;
    const result = await reader.run(['ads', 'campaigns', 'create', '--account', account, '--name', 'Nope']);
    // Refused credentials stop the run: exit 4, and the command that fixes it.
    expect(result.code).toBe(4);
    expect(result.stderr.trim()).toMatch(
      /^PermissionDenied: .*ads\.campaigns\.write \(profile local\); sign in with that scope: `platform auth login --client-credentials --scopes "[^"]*ads\.campaigns\.write" --profile local`$/,
    );
    expect(sandbox.stats.writesById.size).toBe(before);
  });
});
