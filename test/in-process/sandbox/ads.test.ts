import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { AdGroup, Campaign, Store, AdAccount, Ad } from '../../../src/schemas/ads.js';
import { api, getToken, listAll } from '../../helpers/sandbox.js';

let now = Date.parse('2026-03-01T12:00:00Z');
let sandbox: Sandbox;
let token: string;
let account: string;
let eurAccount: string;
let storeIds: string[];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => now });
  token = await getToken(sandbox.url);
  const accounts = await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts');
  account = accounts.body.ad_accounts[0].ad_account_id;
  eurAccount = accounts.body.ad_accounts.find((a: AdAccount) => a.currency_code === 'EUR').ad_account_id;
  storeIds = (await listAll(sandbox.url, token, `/v1/ads/${account}/stores`, 'stores', 2000)).map((s: Store) => s.id);
});
afterAll(() => sandbox.close());

const get = (path: string, t: string | undefined = token) => api(sandbox.url, t, 'GET', path);

describe('authentication and scopes', () => {
  it('401 for a missing, unknown or expired token', async () => {
    const missing = await api(sandbox.url, undefined, 'GET', '/v1/ads/ad-accounts');
    expect(missing.status).toBe(401);
    expect(missing.body.code).toBe('Unauthorized');
    expect((await get('/v1/ads/ad-accounts', 'not-a-token')).status).toBe(401);
    const shortLived = await getToken(sandbox.url);
    now += 2592000 * 1000 + 1;
    try {
      const expired = await get('/v1/ads/ad-accounts', shortLived);
      expect(expired.status).toBe(401);
      expect(expired.body.message).toMatch(/expired/);
    } finally {
      now -= 2592000 * 1000 + 1;
    }
    expect((await get('/v1/ads/ad-accounts', shortLived)).status).toBe(200);
  });

  it('403 PermissionDenied naming the missing scope', async () => {
    const readOnly = await getToken(sandbox.url, { scope: 'ads.campaigns.read' });
    const res = await api(sandbox.url, readOnly, 'POST', `/v1/ads/${account}/campaigns`, {
      campaigns: [{ name: 'x', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }],
    });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ code: 'PermissionDenied', message: 'the token lacks scope ads.campaigns.write' });
    expect((await get('/v1/ads/ad-accounts', readOnly)).body.message).toBe('the token lacks scope ads.ad-accounts.read');
    expect((await get(`/v1/ads/${account}/campaigns`, readOnly)).status).toBe(200);
  });

  it('revokeTokens makes every token unknown', async () => {
    const s = await startSandbox({ port: 0 });
    try {
      const t = await getToken(s.url);
      expect((await api(s.url, t, 'GET', '/v1/ads/ad-accounts')).status).toBe(200);
      s.revokeTokens();
      expect((await api(s.url, t, 'GET', '/v1/ads/ad-accounts')).status).toBe(401);
    } finally {
      await s.close();
    }
  });
});

describe('reads', () => {
  it('lists 3 active accounts with valid shapes, never the inactive one', async () => {
    const res = await get('/v1/ads/ad-accounts');
    expect(res.status).toBe(200);
    expect(res.body.ad_accounts).toHaveLength(3);
    for (const a of res.body.ad_accounts) AdAccount.parse(a);
    expect(new Set(res.body.ad_accounts.map((a: AdAccount) => a.currency_code))).toEqual(new Set(['USD', 'EUR']));
  });

  it('404 for unknown account, unknown campaign and unknown ad group', async () => {
    const acc = await get('/v1/ads/nope/campaigns');
    expect(acc).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    const camp = await get(`/v1/ads/${account}/campaigns/c-123/ad-groups`);
    expect(camp.status).toBe(404);
    expect(camp.body).toEqual({ code: 'NotFound', message: `campaign c-123 not found in account ${account}` });
    const campaigns = await get(`/v1/ads/${account}/campaigns`);
    const cid = campaigns.body.campaigns[0].campaign_id;
    const group = await get(`/v1/ads/${account}/campaigns/${cid}/ad-groups/g-1/ads`);
    expect(group.status).toBe(404);
    expect(group.body.message).toBe(`ad group g-1 not found in campaign ${cid}`);
    // a campaign of another account is not found in this one
    expect((await get(`/v1/ads/${eurAccount}/campaigns/${cid}/ad-groups`)).status).toBe(404);
  });

  it('404 for the campaigns of the inactive account', async () => {
    // the inactive account is never listed; its id is only known from the seed
    const { seedData } = await import('../../../src/sandbox/seed.js');
    const inactive = seedData({ seed: 1 }).accounts.find((a) => !a.active)!.value.ad_account_id;
    expect((await get(`/v1/ads/${inactive}/campaigns`)).status).toBe(404);
    expect((await get(`/v1/ads/${inactive}/stores`)).status).toBe(404);
  });

  it('400 naming page_limit and a bad page_token', async () => {
    for (const bad of ['2001', '0', 'abc', '1.5']) {
      const res = await get(`/v1/ads/${account}/campaigns?page_limit=${bad}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: 'BadRequest', message: 'page_limit must be an integer from 1 to 2000' });
    }
    expect((await get(`/v1/ads/${account}/campaigns?page_token=garbage`)).body.message).toMatch(/page_token/);
    const first = await get(`/v1/ads/${account}/stores?page_limit=5`);
    const foreign = await get(`/v1/ads/${account}/campaigns?page_token=${first.body.next_page_token.value}`);
    expect(foreign.status).toBe(400);
    expect(foreign.body.message).toMatch(/page_token belongs to a different list/);
  });

  it('pages through stores, campaigns, ad groups and ads with no duplicates and nothing missing', async () => {
    const stores = await listAll(sandbox.url, token, `/v1/ads/${account}/stores`, 'stores', 7);
    expect(stores.length).toBeGreaterThanOrEqual(60);
    expect(new Set(stores.map((s) => s.id)).size).toBe(stores.length);
    expect(stores.map((s) => s.id)).toEqual(storeIds);
    stores.forEach((s) => Store.parse(s));

    const full = (await get(`/v1/ads/${account}/campaigns?page_limit=2000`)).body.campaigns as Campaign[];
    expect(full.length).toBe(25);
    const paged = await listAll(sandbox.url, token, `/v1/ads/${account}/campaigns`, 'campaigns', 4);
    expect(paged.map((c) => c.campaign_id)).toEqual(full.map((c) => c.campaign_id));
    paged.forEach((c) => Campaign.parse(c));

    const withGroups = full.find((c) => c.ad_groups.length >= 3)!;
    const groups = await listAll(sandbox.url, token, `/v1/ads/${account}/campaigns/${withGroups.campaign_id}/ad-groups`, 'ad_groups', 1);
    expect(groups.map((g) => g.ad_group_id)).toEqual(withGroups.ad_groups.map((g) => g.ad_group_id));
    groups.forEach((g) => AdGroup.parse(g));

    const group = groups[0];
    const ads = await listAll(sandbox.url, token, `/v1/ads/${account}/campaigns/${withGroups.campaign_id}/ad-groups/${group.ad_group_id}/ads`, 'ads', 1);
    expect(ads.length).toBeGreaterThan(0);
    expect(new Set(ads.map((a) => a.ad_id)).size).toBe(ads.length);
    ads.forEach((a) => expect(Ad.parse(a)).toMatchObject({ ad_group_id: group.ad_group_id, campaign_id: withGroups.campaign_id }));
  });

  it('a campaign created between pages causes no duplicate and shows up at the end', async () => {
    const s = await startSandbox({ port: 0 });
    try {
      const t = await getToken(s.url);
      const acc = (await api(s.url, t, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
      const first = await api(s.url, t, 'GET', `/v1/ads/${acc}/campaigns?page_limit=10`);
      const created = await api(s.url, t, 'POST', `/v1/ads/${acc}/campaigns`, {
        campaigns: [{ name: 'Between pages', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }],
      });
      const newId = created.body.results[0].success.id;
      const ids = first.body.campaigns.map((c: Campaign) => c.campaign_id);
      let pageToken = first.body.next_page_token?.value;
      while (pageToken) {
        const page = await api(s.url, t, 'GET', `/v1/ads/${acc}/campaigns?page_limit=10&page_token=${pageToken}`);
        ids.push(...page.body.campaigns.map((c: Campaign) => c.campaign_id));
        pageToken = page.body.next_page_token?.value;
      }
      expect(ids).toHaveLength(26);
      expect(new Set(ids).size).toBe(26);
      expect(ids[25]).toBe(newId);
    } finally {
      await s.close();
    }
  });

  it('filters by one id per parameter, as the OpenAPI declares; a repeated filter is a 400 naming it', async () => {
    const all = (await get(`/v1/ads/${account}/campaigns`)).body.campaigns as Campaign[];
    const [a, c] = [all[1]!.campaign_id, all[7]!.campaign_id];
    const single = await get(`/v1/ads/${account}/campaigns?campaign_id=${a}`);
    expect(single.body.campaigns.map((x: Campaign) => x.campaign_id)).toEqual([a]);
    const repeated = await get(`/v1/ads/${account}/campaigns?campaign_id=${c}&campaign_id=${a}`);
    expect(repeated.status).toBe(400);
    expect(repeated.body).toEqual({ code: 'BadRequest', message: expect.stringMatching(/campaign_id was given 2 times/) as string });
    const withGroups = all.find((x) => x.ad_groups.length >= 2)!;
    const gid = withGroups.ad_groups[1]!.ad_group_id;
    const groups = await get(`/v1/ads/${account}/campaigns/${withGroups.campaign_id}/ad-groups?ad_group_id=${gid}`);
    expect(groups.body.ad_groups.map((g: AdGroup) => g.ad_group_id)).toEqual([gid]);
    const adsPath = `/v1/ads/${account}/campaigns/${withGroups.campaign_id}/ad-groups/${withGroups.ad_groups[0]!.ad_group_id}/ads`;
    const ads = (await get(adsPath)).body.ads as Ad[];
    const one = await get(`${adsPath}?ad_id=${ads[0]!.ad_id}`);
    expect(one.body.ads).toEqual([ads[0]]);
  });

  it('unknown routes answer 404 / 405 in the {code,message} shape', async () => {
    expect(await get('/v1/nothing')).toMatchObject({ status: 404, body: { code: 'NotFound' } });
    const res = await api(sandbox.url, token, 'DELETE', `/v1/ads/${account}/campaigns`);
    expect(res.status).toBe(405);
    expect(res.body.message).toMatch(/DELETE/);
  });
});

describe('writes', () => {
  const campaignsPath = () => `/v1/ads/${account}/campaigns`;

  it('400 naming the field for a bad enum, bad JSON, and too many items', async () => {
    const bad = await api(sandbox.url, token, 'POST', campaignsPath(), { campaigns: [{ name: 'ok', configured_status: 'ACTIVE' }] });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('BadRequest');
    expect(bad.body.message).toMatch(/^campaigns\[0\]\.configured_status: /);
    const json = await api(sandbox.url, token, 'POST', campaignsPath(), '{"campaigns": [');
    expect(json.status).toBe(400);
    expect(json.body.message).toMatch(/JSON/);
    const many = Array.from({ length: 1001 }, (_, i) => ({ name: `c${i}`, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }));
    const tooMany = await api(sandbox.url, token, 'POST', campaignsPath(), { campaigns: many });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toMatch(/^campaigns: must hold at most 1000 items/);
  });

  it('batch create and patch campaigns with a failing item in the middle', async () => {
    const created = await api(sandbox.url, token, 'POST', campaignsPath(), {
      campaigns: [
        {
          name: 'New A',
          configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
          budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '5000000', currency_code: 'USD' } },
        },
        {
          name: 'Wrong currency',
          configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
          budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '5000000', currency_code: 'EUR' } },
        },
        { name: 'New C', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' },
      ],
    });
    expect(created.status).toBe(200);
    const [a, failed, c] = created.body.results;
    expect(failed).toEqual({
      failure: { error_code: 'InvalidArgument', error_message: expect.stringMatching(/^campaigns\[1\]\.budget\.total\.currency_code: .*EUR.*USD/) },
    });
    const ids = [a.success.id, c.success.id];
    // One id per filter parameter (the OpenAPI declares it a single string).
    const byIds = async () =>
      (await Promise.all(ids.map(async (id) => (await get(`${campaignsPath()}?campaign_id=${id}`)).body.campaigns as Campaign[]))).flat();
    const listed = { body: { campaigns: await byIds() } };
    expect(listed.body.campaigns).toHaveLength(2);
    expect(listed.body.campaigns[0]).toMatchObject({
      name: 'New A',
      created_by_email: 'sandbox-demo@example.com',
      effective_status: 'CAMPAIGN_EFFECTIVE_STATUS_ACTIVE',
      permissions: ['READ', 'UPDATE', 'DELETE'],
      ad_groups: [],
      created_at: '2026-03-01T12:00:00Z',
    });

    now += 60_000;
    const patched = await api(sandbox.url, token, 'PATCH', campaignsPath(), {
      campaigns: [
        { campaign_id: ids[0], configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' },
        { campaign_id: 'c-missing', name: 'x' },
        { campaign_id: ids[1], name: 'Renamed C' },
      ],
    });
    expect(patched.body.results).toEqual([
      { success: { id: ids[0] } },
      { failure: { error_code: 'NotFound', error_message: `campaign c-missing not found in account ${account}` } },
      { success: { id: ids[1] } },
    ]);
    const after = (await byIds()) as Array<Campaign & { budget: { total: { amount_e5: string } } }>;
    expect(after[0]).toMatchObject({
      name: 'New A',
      configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      updated_at: '2026-03-01T12:01:00Z',
      created_at: '2026-03-01T12:00:00Z',
    });
    expect(after[0]!.budget.total.amount_e5).toBe('5000000');
    expect(after[1]).toMatchObject({ name: 'Renamed C', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' });
    expect(sandbox.stats.writesById.get(ids[0])).toBe(2);
  });

  it('creates and patches ad groups with business-rule failures per item, and ads', async () => {
    const campaign = (
      await api(sandbox.url, token, 'POST', campaignsPath(), { campaigns: [{ name: 'Host', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] })
    ).body.results[0].success.id;
    const path = `${campaignsPath()}/${campaign}/ad-groups`;
    const base = {
      name: 'G',
      ad_product: 'SPONSORED_SEARCH',
      configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
      schedule: { start_time: '2026-04-01T00:00:00Z' },
      bidding: { auto: {} },
      targeting: { negation: false, operator: 'AND', criteria: [{ keyword_targeting: { keywords: ['pizza'], match_type: 'EXACT' } }] },
      ad_subjects: { stores: { store_ids: [storeIds[0]] } },
    };
    const res = await api(sandbox.url, token, 'POST', path, {
      ad_groups: [
        base,
        { ...base, ad_subjects: { stores: { store_ids: ['not-a-store'] } } },
        { ...base, bidding: { manual: { bid_amount: { amount_e5: '100000', currency_code: 'EUR' } } } },
        { ...base, schedule: { start_time: '2026-04-01T00:00:00Z', end_time: '2026-03-01T00:00:00Z' } },
      ],
    });
    expect(res.status).toBe(200);
    const [ok, store, bid, schedule] = res.body.results;
    expect(ok.success.id).toBeTruthy();
    expect(store.failure).toMatchObject({ error_code: 'InvalidArgument', error_message: expect.stringContaining('ad_groups[1].ad_subjects.stores.store_ids') });
    expect(bid.failure.error_message).toMatch(/ad_groups\[2\]\.bidding\.manual\.bid_amount\.currency_code/);
    expect(schedule.failure.error_message).toMatch(/ad_groups\[3\]\.schedule\.end_time/);
    const listed = (await get(path)).body.ad_groups;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ subjects: { stores: { store_ids: [storeIds[0]] } }, effective_status: 'AD_GROUP_EFFECTIVE_STATUS_ACTIVE' });
    expect(listed[0].targeting.criteria[0].keyword_targeting.match_type).toBe('MATCH_TYPE_EXACT');
    expect(listed[0]).not.toHaveProperty('ad_subjects');

    const patch = await api(sandbox.url, token, 'PATCH', path, {
      ad_groups: [
        { ad_group_id: ok.success.id, configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED' },
        { ad_group_id: 'g-x', name: 'y' },
      ],
    });
    expect(patch.body.results[1].failure.error_code).toBe('NotFound');
    const summary = (await get(`${campaignsPath()}?campaign_id=${campaign}`)).body.campaigns[0].ad_groups;
    expect(summary).toEqual([
      {
        ad_group_id: ok.success.id,
        name: 'G',
        ad_product: 'SPONSORED_SEARCH',
        configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED',
        effective_status: 'AD_GROUP_EFFECTIVE_STATUS_ACTIVE',
        permissions: ['READ', 'UPDATE', 'DELETE'],
      },
    ]);

    const adsPath = `${path}/${ok.success.id}/ads`;
    const ads = await api(sandbox.url, token, 'POST', adsPath, { ads: [{ name: 'Ad one' }, { name: 'Ad two' }] });
    expect(ads.body.results).toHaveLength(2);
    const listedAds = (await get(adsPath)).body.ads;
    expect(listedAds.map((a: Ad) => a.name)).toEqual(['Ad one', 'Ad two']);
    expect(listedAds[0]).toMatchObject({ ad_group_id: ok.success.id, campaign_id: campaign });
  });

  it('replays an Idempotency-Key without applying the write again', async () => {
    const body = { campaigns: [{ name: 'Once', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] };
    const headers = { 'idempotency-key': 'key-123' };
    const first = await api(sandbox.url, token, 'POST', campaignsPath(), body, headers);
    const second = await api(sandbox.url, token, 'POST', campaignsPath(), body, headers);
    expect(second.status).toBe(200);
    expect(second.body).toEqual(first.body);
    const id = first.body.results[0].success.id;
    expect(sandbox.stats.writesById.get(id)).toBe(1);
    const all = await listAll(sandbox.url, token, campaignsPath(), 'campaigns', 2000);
    expect(all.filter((c) => c.name === 'Once')).toHaveLength(1);
    const patchBody = { campaigns: [{ campaign_id: id, name: 'Twice?' }] };
    await api(sandbox.url, token, 'PATCH', campaignsPath(), patchBody, { 'idempotency-key': 'key-456' });
    await api(sandbox.url, token, 'PATCH', campaignsPath(), patchBody, { 'idempotency-key': 'key-456' });
    expect(sandbox.stats.writesById.get(id)).toBe(2);
    const reuse = await api(
      sandbox.url,
      token,
      'PATCH',
      campaignsPath(),
      { campaigns: [{ campaign_id: id, name: 'other' }] },
      { 'idempotency-key': 'key-456' },
    );
    expect(reuse.status).toBe(400);
  });

  it("keeps a key per ad account, whoever sends it: another token's repeat is replayed (Idempotent-Replayed), the same key in another account is that account's own", async () => {
    const body = { campaigns: [{ name: 'Per account', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' }] };
    const headers = { 'idempotency-key': 'plan-key-1' };
    const first = await api(sandbox.url, token, 'POST', campaignsPath(), body, headers);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const otherToken = await getToken(sandbox.url);
    const again = await api(sandbox.url, otherToken, 'POST', campaignsPath(), body, headers);
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([200, 'true']);
    expect(again.body).toEqual(first.body);
    const eur = { campaigns: [{ name: 'Per account', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' }] };
    const elsewhere = await api(sandbox.url, otherToken, 'POST', `/v1/ads/${eurAccount}/campaigns`, eur, headers);
    expect([elsewhere.status, elsewhere.headers.get('idempotent-replayed')]).toEqual([200, null]);
    expect(elsewhere.body.results[0].success.id).not.toBe(first.body.results[0].success.id);
    // Kept 24 hours: a day later the key is new again.
    now += 24 * 3600_000 + 1;
    try {
      const later = await api(sandbox.url, token, 'POST', campaignsPath(), body, headers);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
    } finally {
      now -= 24 * 3600_000 + 1;
    }
  });

  it('GET /_sandbox/stats reports requests and writes', async () => {
    const res = await api(sandbox.url, undefined, 'GET', '/_sandbox/stats');
    expect(res.status).toBe(200);
    expect(res.body.apiRequests).toBe(sandbox.stats.apiRequests);
    expect(res.body.tokenRequests).toBeGreaterThan(0);
    expect(Object.keys(res.body.writes).length).toBe(sandbox.stats.writesById.size);
    expect(sandbox.stats.requests.at(-1)).toMatchObject({ method: 'GET', path: '/_sandbox/stats', status: 200 });
  });
});

describe('request size', () => {
  it('answers 413 to a body over the limit (the connection stays usable for the answer)', async () => {
    const big = 'x'.repeat(33 * 1024 * 1024);
    const res = await fetch(`${sandbox.url}/v1/ads/any/campaigns`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 'BadRequest', message: expect.stringMatching(/larger than/) });
  });
});
