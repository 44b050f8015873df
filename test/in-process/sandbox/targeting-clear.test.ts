// The sandbox over raw HTTP: every criterion shape of the OpenAPI's inputs is stored; an
// empty budget/targeting/dayparting_schedule in an update clears the field, as the OpenAPI's
// text says; null means absent (the field is left as it is). Before, order_frequency and
// nested criteria were 400 "unknown field", {} was 400 and null was 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { api, getToken } from '../../helpers/sandbox.js';

let sandbox: Sandbox;
let token: string;
let account: string;
let currency: string;
let store: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, campaigns: 0 });
  token = await getToken(sandbox.url);
  const accounts = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts as Array<{ ad_account_id: string; currency_code: string }>;
  account = accounts[0]!.ad_account_id;
  currency = accounts[0]!.currency_code;
  store = ((await api(sandbox.url, token, 'GET', `/v1/ads/${account}/stores`)).body.stores as Array<{ id: string }>)[0]!.id;
});
afterAll(() => sandbox.close());

const orderFrequency = { lower_bound: 0, upper_bound: -1, time_range: { past_days_range: { start_day: 0, end_day: 90 } } };
const targeting = {
  negation: false,
  operator: 'OR',
  criteria: [
    { order_frequency: orderFrequency },
    { criteria: { negation: true, operator: 'AND', criteria: [{ keyword_targeting: { keywords: ['tea'], match_type: 'EXACT' } }, { new_to_location: {} }] } },
  ],
};
const week = {
  dayparting_day_schedule: Array.from({ length: 7 }, () => ({ intervals: [{ start_time: { hour: 9, minute: 0 }, end_time: { hour: 17, minute: 0 } }] })),
};

async function adGroup(): Promise<{ campaign: string; id: string }> {
  const budget = { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '5000000', currency_code: currency } };
  const created = await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, {
    campaigns: [{ name: 'Clear', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE', budget }],
  });
  const campaign = created.body.results[0].success.id as string;
  const group = await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns/${campaign}/ad-groups`, {
    ad_groups: [
      {
        name: 'Clear',
        ad_product: 'SPONSORED_SEARCH',
        configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
        budget,
        schedule: { start_time: '2026-12-01T00:00:00Z' },
        dayparting_schedule: week,
        bidding: { auto: {} },
        targeting,
        ad_subjects: { stores: { store_ids: [store] } },
      },
    ],
  });
  expect(group.status).toBe(200);
  return { campaign, id: group.body.results[0].success.id as string };
}

async function current(campaign: string, id: string): Promise<Record<string, unknown>> {
  const listed = await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns/${campaign}/ad-groups?ad_group_ids=${id}`);
  return (listed.body.ad_groups as Array<Record<string, unknown>>).find((g) => g.ad_group_id === id)!;
}

describe('targeting shapes, clearing and null in the sandbox', () => {
  it('stores order_frequency and a nested group as given (match types in the response spelling)', async () => {
    const { campaign, id } = await adGroup();
    const shown = JSON.parse(JSON.stringify(targeting).replace('"EXACT"', '"MATCH_TYPE_EXACT"')) as unknown;
    expect((await current(campaign, id)).targeting).toEqual(shown);
  });

  it('null in an update is absent: the field stays', async () => {
    const { campaign, id } = await adGroup();
    const before = await current(campaign, id);
    const patched = await api(sandbox.url, token, 'PATCH', `/v1/ads/${account}/campaigns/${campaign}/ad-groups`, {
      ad_groups: [{ ad_group_id: id, budget: null, targeting: null, name: 'Still here' }],
    });
    expect(patched.status).toBe(200);
    const after = await current(campaign, id);
    expect(after.budget).toEqual(before.budget);
    expect(after.targeting).toEqual(before.targeting);
    expect(after.name).toBe('Still here');
  });

  it('an empty budget, targeting or dayparting_schedule clears it; a half one is refused naming the missing key', async () => {
    const { campaign, id } = await adGroup();
    const path = `/v1/ads/${account}/campaigns/${campaign}/ad-groups`;
    const half = await api(sandbox.url, token, 'PATCH', path, { ad_groups: [{ ad_group_id: id, budget: { unit: 'BUDGET_UNIT_DAILY' } }] });
    expect(half.status).toBe(400);
    expect(half.body.message).toContain('budget.total');
    const cleared = await api(sandbox.url, token, 'PATCH', path, { ad_groups: [{ ad_group_id: id, budget: {}, targeting: {}, dayparting_schedule: {} }] });
    expect(cleared.status).toBe(200);
    expect(cleared.body.results[0]).toEqual({ success: { id } });
    const after = await current(campaign, id);
    expect(after).not.toHaveProperty('budget');
    expect(after).not.toHaveProperty('targeting');
    expect(after).not.toHaveProperty('dayparting_schedule');

    const campaignCleared = await api(sandbox.url, token, 'PATCH', `/v1/ads/${account}/campaigns`, { campaigns: [{ campaign_id: campaign, budget: {} }] });
    expect(campaignCleared.status).toBe(200);
    const campaigns = (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns`)).body.campaigns as Array<Record<string, unknown>>;
    expect(campaigns.find((c) => c.campaign_id === campaign)).not.toHaveProperty('budget');
  });
});
