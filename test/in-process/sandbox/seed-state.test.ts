import { mkdtempSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { seedData } from '../../../src/sandbox/seed.js';
import { api, getToken, listAll } from '../../helpers/sandbox.js';
import { scaled } from '../../helpers/time-scale.js';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('seed', () => {
  it('same seed gives identical data, a different seed different ids', () => {
    expect(JSON.stringify(seedData({ seed: 7 }))).toBe(JSON.stringify(seedData({ seed: 7 })));
    expect(seedData({ seed: 1 }).accounts[0]!.value.ad_account_id).not.toBe(seedData({ seed: 2 }).accounts[0]!.value.ad_account_id);
  });

  it('has the documented layout and shows every ad group field', () => {
    const data = seedData({ seed: 1 });
    expect(data.accounts.map((a) => [a.value.currency_code, a.active])).toEqual([
      ['USD', true],
      ['USD', true],
      ['EUR', true],
      ['GBP', false],
    ]);
    const first = data.accounts[0]!.value.ad_account_id;
    expect(data.stores[first]).toHaveLength(60);
    expect(data.campaigns.filter((c) => c.account === first)).toHaveLength(25);
    const groups = data.adGroups.map((g) => g.value);
    const text = JSON.stringify(groups);
    for (const needle of [
      'MATCH_TYPE_EXACT',
      'MATCH_TYPE_BROAD',
      'platform_one',
      '"hour":24',
      'AD_GROUP_CONFIGURED_STATUS_PAUSED',
      '"auto":{}',
      'bid_amount',
      'BUDGET_UNIT_WEEKLY',
      'BUDGET_UNIT_DAILY',
      'SPONSORED_SEARCH',
      'SPONSORED_LISTING',
    ]) {
      expect(text).toContain(needle);
    }
    expect(groups.some((g) => g.schedule.end_time)).toBe(true);
    expect(groups.some((g) => !g.schedule.end_time)).toBe(true);
    expect(groups.some((g) => !g.budget)).toBe(true);
    const storeIds = new Set(
      Object.values(data.stores)
        .flat()
        .map((s) => s.id),
    );
    expect(groups.every((g) => g.subjects!.stores.store_ids.every((id) => storeIds.has(id)))).toBe(true);
    expect(data.campaigns.some((c) => c.value.configured_status === 'CAMPAIGN_CONFIGURED_STATUS_PAUSED')).toBe(true);
    expect(data.campaigns.some((c) => !c.value.budget)).toBe(true);
    expect(data.ads.length).toBeGreaterThan(0);
  });

  it('two sandboxes with the same seed serve the same data', async () => {
    const [a, b] = await Promise.all([startSandbox({ port: 0, seed: 42 }), startSandbox({ port: 0, seed: 42 })]);
    try {
      const lists = await Promise.all(
        [a, b].map(async (s) => {
          const t = await getToken(s.url);
          const acc = (await api(s.url, t, 'GET', '/v1/ads/ad-accounts')).body;
          const campaigns = await listAll(s.url, t, `/v1/ads/${acc.ad_accounts[0].ad_account_id}/campaigns`, 'campaigns', 2000);
          return { acc, campaigns };
        }),
      );
      expect(lists[0]).toEqual(lists[1]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('seeds 100000 campaigns and lists them page by page (how fast: npm run bench)', { timeout: scaled(30_000) }, async () => {
    const s = await startSandbox({ port: 0, campaigns: 100_000 });
    try {
      const t = await getToken(s.url);
      const acc = (await api(s.url, t, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
      const all = await listAll(s.url, t, `/v1/ads/${acc}/campaigns`, 'campaigns', 2000);
      expect(all).toHaveLength(100_000);
      expect(new Set(all.map((c) => c.campaign_id)).size).toBe(100_000);
      expect(all[99_999].ad_groups).toEqual([]);
    } finally {
      await s.close();
    }
  });
});

describe('state persistence', () => {
  it('keeps created data and issued tokens across a restart', async () => {
    const statePath = join(dir, 'state.json');
    const first = await startSandbox({ port: 0, statePath, seed: 3 });
    const token = await getToken(first.url);
    const acc = (await api(first.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
    const created = await api(
      first.url,
      token,
      'POST',
      `/v1/ads/${acc}/campaigns`,
      { campaigns: [{ name: 'Persisted', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' }] },
      { 'idempotency-key': 'persist-1' },
    );
    const id = created.body.results[0].success.id;
    await first.close();
    expect(existsSync(statePath)).toBe(true);

    // a different seed is ignored when the state file exists
    const second = await startSandbox({ port: 0, statePath, seed: 99 });
    try {
      const listed = await api(second.url, token, 'GET', `/v1/ads/${acc}/campaigns?campaign_id=${id}`);
      expect(listed.status).toBe(200);
      expect(listed.body.campaigns[0]).toMatchObject({ campaign_id: id, name: 'Persisted' });
      const replay = await api(
        second.url,
        token,
        'POST',
        `/v1/ads/${acc}/campaigns`,
        { campaigns: [{ name: 'Persisted', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' }] },
        { 'idempotency-key': 'persist-1' },
      );
      expect(replay.body).toEqual(created.body);
      expect(second.stats.writesById.size).toBe(0);
    } finally {
      await second.close();
    }
  });
});
