// Snapshots share the store's records (copy-on-write): a snapshot must never see a write made
// after it, through any write route, and must stay as it was after being restored and written
// over again (at 100,000 campaigns: test/heavy/snapshot-scale.test.ts). A reset
// numbers ids (campaigns, ad groups, ads, reports) and webhook events (which chaos duplicates)
// exactly as a fresh sandbox of the same seed does.
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { userToken } from '../../helpers/rider.js';
import { CLIENT } from '../../helpers/oauth.js';
import { api, getToken } from '../../helpers/sandbox.js';
import { consolePost, dump, ok, sandboxAt } from '../../helpers/sandbox-state.js';

const START = { start_latitude: 37.7749, start_longitude: -122.4194 };
const END = { end_latitude: 37.7599, end_longitude: -122.4148 };
const RANGE = { start_time: '2025-01-13T00:00:00Z', end_time: '2025-01-20T00:00:00Z' };

const firstId = (res: { body: { results: Array<{ success?: { id: string } }> } }) => res.body.results[0]!.success!.id;

/** One call of every write route that changes the state, in an order that is the same on every sandbox. */
async function writeEverywhere(sandbox: Sandbox, token: string, rider: string, account: string, clock: { now: number }, tag: string) {
  const url = sandbox.url;
  const ids: string[] = [];
  const campaigns = (await api(url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=50`)).body.campaigns as Array<{ campaign_id: string }>;
  const seeded = campaigns.find((c) => c.campaign_id)!.campaign_id;
  const campaign = firstId(
    ok(
      await api(url, token, 'POST', `/v1/ads/${account}/campaigns`, {
        campaigns: [{ name: `c ${tag}`, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }],
      }),
      'create campaign',
    ),
  );
  ids.push(campaign);
  ok(
    await api(url, token, 'PATCH', `/v1/ads/${account}/campaigns`, {
      campaigns: [
        {
          campaign_id: seeded,
          configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
          // Another budget each round: a later round adds to the campaign's delivery history.
          budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: String(tag.length * 100000), currency_code: 'USD' } },
        },
      ],
    }),
    'patch campaign',
  );
  const store = (await api(url, token, 'GET', `/v1/ads/${account}/stores`)).body.stores[0].id as string;
  const group = firstId(
    ok(
      await api(url, token, 'POST', `/v1/ads/${account}/campaigns/${campaign}/ad-groups`, {
        ad_groups: [
          {
            name: `g ${tag}`,
            ad_product: 'SPONSORED_SEARCH',
            ad_subjects: { stores: { store_ids: [store] } },
            targeting: { negation: false, operator: 'AND', criteria: [{ keyword_targeting: { keywords: ['pizza'], match_type: 'EXACT' } }] },
            configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
            schedule: { start_time: '2026-03-01T00:00:00Z' },
            bidding: { auto: {} },
            budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '5000000', currency_code: 'USD' } },
          },
        ],
      }),
      'create ad group',
    ),
  );
  ids.push(group);
  // A day later, so the history keeps the state each patch replaces.
  clock.now += 86_400_000;
  ok(
    await api(url, token, 'PATCH', `/v1/ads/${account}/campaigns/${campaign}/ad-groups`, {
      ad_groups: [{ ad_group_id: group, configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED', name: `g2 ${tag}` }],
    }),
    'patch ad group',
  );
  const ad = firstId(
    ok(await api(url, token, 'POST', `/v1/ads/${account}/campaigns/${campaign}/ad-groups/${group}/ads`, { ads: [{ name: `a ${tag}` }] }), 'ad'),
  );
  ids.push(ad);
  ok(
    await api(url, token, 'PATCH', `/v1/ads/${account}/campaigns/${campaign}/ad-groups/${group}/ads`, { ads: [{ ad_id: ad, name: `a2 ${tag}` }] }),
    'patch ad',
  );
  // An Idempotency-Key keeps the response in the state.
  const keyed = await fetch(`${url}/v1/ads/${account}/campaigns`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': `key ${tag}` },
    body: JSON.stringify({ campaigns: [{ name: `k ${tag}`, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] }),
  });
  ids.push(((await keyed.json()) as { results: Array<{ success: { id: string } }> }).results[0]!.success.id);
  const report = ok(
    await api(url, token, 'POST', `/v1/ads/${account}/reporting/report`, {
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: RANGE,
      columns: ['campaign_id', 'clicks'],
      time_unit: 'SUMMARY',
      file_format: 'CSV',
    }),
    'report',
  );
  ids.push(report.body.report_id as string);

  // Rider: a fare, a ride moved along by the clock and by the control route, a product
  // override, a promotion, a saved place; each status change makes webhook events.
  const products = ok(await api(url, rider, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194'), 'products').body.products;
  const x = products.find((p: { product_group: string }) => p.product_group === 'platformx').product_id as string;
  const estimate = ok(await api(url, rider, 'POST', '/v1.2/requests/estimate', { product_id: x, ...START, ...END }), 'estimate');
  const ride = ok(await api(url, rider, 'POST', '/v1.2/requests', { product_id: x, fare_id: estimate.body.price.fare_id, ...START, ...END }), 'ride');
  clock.now += 10_000;
  ok(await api(url, rider, 'GET', `/v1.2/requests/${ride.body.request_id}`), 'read ride');
  ok(await api(url, rider, 'PUT', `/v1.2/sandbox/requests/${ride.body.request_id}`, { status: 'in_progress' }), 'ride status');
  ok(await api(url, rider, 'PUT', `/v1.2/sandbox/requests/${ride.body.request_id}`, { status: 'completed' }), 'ride completed');
  // A surge on another product, and an estimate there (a surge confirmation).
  const other = products.find((p: { product_id: string; product_group: string }) => p.product_id !== x && p.product_group !== 'taxi').product_id as string;
  ok(await api(url, rider, 'PUT', `/v1.2/sandbox/products/${other}`, { surge_multiplier: tag === 'before' ? 2.5 : 3 }), 'override');
  ok(await api(url, rider, 'POST', '/v1.2/requests/estimate', { product_id: other, ...START, ...END }), 'surged estimate');
  // A second code after the first: the user's list grows.
  ok(await api(url, rider, 'PATCH', '/v1.2/me', { applied_promotion_codes: tag === 'before' ? 'FREERIDE' : 'WELCOME10' }), 'promotion');
  ok(await api(url, rider, 'PUT', '/v1.2/places/home', { address: `1 Market St ${tag}, San Francisco` }), 'place');
  return ids;
}

describe('copy-on-write snapshots', () => {
  it('a snapshot sees no write made after it, through any write route, and stays so after a restore and more writes', async () => {
    const { sandbox, token, account, clock } = await sandboxAt();
    const rider = await userToken(sandbox.url, 'profile request');
    await writeEverywhere(sandbox, token, rider, account, clock, 'before');
    const saved = await dump(sandbox);
    const savedAt = clock.now;
    expect((await consolePost(sandbox, '/_sandbox/snapshots', { name: 's' })).status).toBe(201);
    expect(await dump(sandbox)).toBe(saved);

    sandbox.rider.expireFares(); // fares saved unexpired (the clock has not moved), changed in place
    await writeEverywhere(sandbox, token, rider, account, clock, 'after');
    await getToken(sandbox.url); // a token issued
    expect(await dump(sandbox)).not.toBe(saved);
    expect((await consolePost(sandbox, '/_sandbox/snapshots/s/restore')).status).toBe(200);
    expect(await dump(sandbox)).toBe(saved);

    // Writes after a restore change the live state only: the snapshot restores as saved again.
    // Back at the moment of the save, the restored fares are unexpired, and expiring changes them.
    clock.now = savedAt;
    sandbox.rider.expireFares();
    await writeEverywhere(sandbox, token, rider, account, clock, 'after restore');
    expect(await dump(sandbox)).not.toBe(saved);
    expect((await consolePost(sandbox, '/_sandbox/snapshots/s/restore')).status).toBe(200);
    expect(await dump(sandbox)).toBe(saved);
  });

  it('with --state, a snapshot outlives a restart: read back from its file, it restores exactly, twice over writes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platform-snapshot-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const statePath = join(dir, 'state.json');
    const first = await sandboxAt({ statePath });
    const rider = await userToken(first.sandbox.url, 'profile request');
    await writeEverywhere(first.sandbox, first.token, rider, first.account, first.clock, 'before');
    const saved = await dump(first.sandbox);
    const info = (await (await consolePost(first.sandbox, '/_sandbox/snapshots', { name: 'disk' })).json()) as { bytes?: number };
    expect(info.bytes).toBe(statSync(join(dir, 'state.json.snapshots', 'disk.json')).size);
    await first.sandbox.close();

    const second = await sandboxAt({ statePath });
    const listed = (await (await fetch(`${second.sandbox.url}/_sandbox/snapshots`)).json()) as { snapshots: Array<{ name: string; bytes: number }> };
    expect(listed.snapshots).toEqual([expect.objectContaining({ name: 'disk', bytes: info.bytes })]);
    for (const tag of ['after', 'again']) {
      // A restore takes the tokens back to the saved ones: new ones each round.
      const [token, rider2] = [await getToken(second.sandbox.url), await userToken(second.sandbox.url, 'profile request')];
      await writeEverywhere(second.sandbox, token, rider2, second.account, second.clock, tag);
      expect(await dump(second.sandbox)).not.toBe(saved);
      expect((await consolePost(second.sandbox, '/_sandbox/snapshots/disk/restore')).status).toBe(200);
      expect(await dump(second.sandbox)).toBe(saved);
    }
  });

  it('after a reset, the same calls get the same ids and the same webhook events, duplicates included, as on a fresh sandbox of the same seed', async () => {
    const received: string[] = [];
    const calls = async (s: Awaited<ReturnType<typeof sandboxAt>>) => {
      const rider = await userToken(s.sandbox.url, 'profile request');
      const ids = await writeEverywhere(s.sandbox, s.token, rider, s.account, s.clock, 'same');
      await s.sandbox.webhooks.idle();
      const log = (await api(s.sandbox.url, undefined, 'GET', `/v1.2/sandbox/applications/${CLIENT.client_id}/webhook/deliveries`)).body.deliveries as Array<{
        event_type: string;
        status: string;
      }>;
      // With duplicates on, which events go out twice follows the events' numbering. (Ride and
      // event ids are random: a listener drops an event whose ride id and status it has seen.)
      const attempts = s.sandbox.webhooks.attempts.map((a) => `${a.event_type} ${a.status}`);
      return { ids, events: log.map((d) => `${d.event_type} ${d.status}`), attempts };
    };
    const receiver = await startReceiverOk(received);
    const options = { webhookUrl: receiver.url, webhookChaos: { duplicates: 0.5, reorder: 0 } };

    const fresh = await sandboxAt(options);
    const expected = await calls(fresh);
    expect(expected.events.length).toBeGreaterThan(3);
    expect(expected.attempts.length).toBeGreaterThan(expected.events.length); // some went out twice

    const used = await sandboxAt(options);
    await calls(used);
    const campaignsBefore = (await api(used.sandbox.url, used.token, 'GET', `/v1/ads/${used.account}/campaigns?page_limit=100`)).body.campaigns.length;
    expect((await consolePost(used.sandbox, '/_sandbox/reset')).status).toBe(200);
    // A reset drops tokens too; the clock is the test's, so it goes back by hand.
    used.clock.now = Date.parse('2026-03-02T10:00:00Z');
    const token = await getToken(used.sandbox.url);
    expect((await api(used.sandbox.url, token, 'GET', `/v1/ads/${used.account}/campaigns?page_limit=100`)).body.campaigns.length).toBeLessThan(campaignsBefore);
    const afterReset = await calls({ ...used, token });
    expect(afterReset).toEqual(expected);
    await receiver.close();
  });
});

/** A webhook receiver that answers 200 to everything (the event ids it got, in order). */
async function startReceiverOk(received: string[]): Promise<{ url: string; close: () => Promise<void> }> {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(body);
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
