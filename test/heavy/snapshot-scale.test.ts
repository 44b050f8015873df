// Copy-on-write snapshots at scale: at 100,000 campaigns, a restore after many writes gives
// back exactly the dump taken at the save (test/in-process/sandbox/snapshot-cow.test.ts has
// the rules at the seeded size).
import { describe, expect, it } from 'vitest';
import { api } from '../helpers/sandbox.js';
import { consolePost, dump, ok, sandboxAt } from '../helpers/sandbox-state.js';
import { scaled } from '../helpers/time-scale.js';

describe('copy-on-write snapshots', () => {
  it('at 100,000 campaigns, a restore after many writes gives back exactly the dump taken at the save', { timeout: scaled(120_000) }, async () => {
    const { sandbox, token, account, clock } = await sandboxAt({ campaigns: 100_000 });
    expect((await consolePost(sandbox, '/_sandbox/snapshots', { name: 'big' })).status).toBe(201);
    const saved = await dump(sandbox);
    expect(JSON.parse(saved).campaigns.length).toBeGreaterThan(100_000);

    // Patches spread over the whole list (first, middle, last), creates, and a day later again.
    const page = (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=2000`)).body.campaigns as Array<{ campaign_id: string }>;
    const all = JSON.parse(saved).campaigns as Array<{ account: string; value: { campaign_id: string; name: string } }>;
    const ours = all.filter((c) => c.account === account).map((c) => c.value.campaign_id);
    const targets = [...page.slice(0, 500).map((c) => c.campaign_id), ...ours.slice(50_000, 50_500), ...ours.slice(-500)];
    for (let round = 0; round < 2; round++) {
      for (let i = 0; i < targets.length; i += 100) {
        const batch = targets.slice(i, i + 100).map((campaign_id, j) => ({
          campaign_id,
          name: `patched ${round} ${i + j}`,
          configured_status: round === 0 ? 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' : 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
        }));
        ok(await api(sandbox.url, token, 'PATCH', `/v1/ads/${account}/campaigns`, { campaigns: batch }), 'patch');
      }
      const created = Array.from({ length: 100 }, (_, i) => ({ name: `new ${round} ${i}`, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }));
      ok(await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, { campaigns: created }), 'create');
      clock.now += 86_400_000;
    }
    const changed = await dump(sandbox);
    expect(changed).not.toBe(saved);
    expect(JSON.parse(changed).campaigns.length).toBe(JSON.parse(saved).campaigns.length + 200);

    expect((await consolePost(sandbox, '/_sandbox/snapshots/big/restore')).status).toBe(200);
    expect(await dump(sandbox)).toBe(saved);
    // The restored store serves the API: a patched campaign has its saved name again.
    const first = (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?campaign_id=${targets[0]}`)).body.campaigns[0];
    expect(first.name).toBe(all.find((c) => c.value.campaign_id === targets[0])!.value.name);
  });
});
