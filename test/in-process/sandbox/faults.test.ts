import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { api, getToken } from '../../helpers/sandbox.js';

describe('fault injection', () => {
  let sandbox: Sandbox;
  let token: string;
  let account: string;
  let now = Date.parse('2026-03-01T00:00:00Z');
  const randoms: number[] = [];
  const lines: string[] = [];
  const slept: number[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({
      port: 0,
      now: () => now,
      sleep: async (ms) => void slept.push(ms),
      random: () => randoms.shift() ?? 0.99,
      log: (l) => lines.push(l),
    });
    token = await getToken(sandbox.url);
    account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
  });
  afterAll(() => sandbox.close());

  const create = (name: string) =>
    api(
      sandbox.url,
      token,
      'POST',
      `/v1/ads/${account}/campaigns`,
      { campaigns: [{ name, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] },
      { 'idempotency-key': name },
    );
  const countNamed = async (name: string) =>
    (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=2000`)).body.campaigns.filter((c: { name: string }) => c.name === name)
      .length;

  it('failRate 1 answers 500 Internal or drops the connection', async () => {
    sandbox.setFaults({ failRate: 1 });
    try {
      const outcomes = new Set<string>();
      for (let i = 0; i < 20; i++) {
        randoms.push(0, Math.random());
        try {
          const res = await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts');
          expect(res.status).toBe(500);
          expect(res.body.code).toBe('Internal');
          outcomes.add('500');
        } catch (error) {
          expect(String((error as Error & { cause?: unknown }).cause ?? error)).toMatch(/socket|closed|terminated|ECONNRESET|other side/i);
          outcomes.add('drop');
        }
      }
      expect(outcomes).toEqual(new Set(['500', 'drop']));
    } finally {
      sandbox.setFaults({ failRate: 0 });
    }
  });

  it('a drop before applying writes nothing; a drop after applying writes once and the retry replays', async () => {
    sandbox.setFaults({ failRate: 1 });
    randoms.push(0, 0.6); // drop before apply
    await expect(create('drop-before')).rejects.toThrow();
    randoms.push(0, 0.9); // drop after apply
    await expect(create('drop-after')).rejects.toThrow();
    sandbox.setFaults({ failRate: 0 });
    expect(await countNamed('drop-before')).toBe(0);
    expect(await countNamed('drop-after')).toBe(1);
    const retry = await create('drop-after');
    expect(retry.status).toBe(200);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await countNamed('drop-after')).toBe(1);
    expect(sandbox.stats.writesById.get(retry.body.results[0].success.id)).toBe(1);
  });

  it('throttleRate 1 answers 429 RateLimitExceeded with Retry-After: 1', async () => {
    sandbox.setFaults({ throttleRate: 1 });
    const before = sandbox.stats.apiRequests;
    const res = await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts');
    sandbox.setFaults({ throttleRate: 0 });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('RateLimitExceeded');
    expect(res.headers.get('retry-after')).toBe('1');
    expect(sandbox.stats.apiRequests).toBe(before + 1);
  });

  it('rateLimit N allows N requests per second per token, then 429 with Retry-After', async () => {
    sandbox.setFaults({ rateLimit: 3 });
    try {
      now += 10_000;
      const statuses = [];
      for (let i = 0; i < 4; i++) statuses.push((await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).status);
      expect(statuses).toEqual([200, 200, 200, 429]);
      const other = await getToken(sandbox.url);
      expect((await api(sandbox.url, other, 'GET', '/v1/ads/ad-accounts')).status).toBe(200);
      const limited = await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts');
      expect(limited.headers.get('retry-after')).toBe('1');
      now += 1001;
      expect((await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).status).toBe(200);
      // One limit per token over every route: two more reads elsewhere, then a write is refused.
      expect((await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns`)).status).toBe(200);
      expect((await api(sandbox.url, token, 'GET', `/v1/ads/${account}/stores`)).status).toBe(200);
      expect((await create('over the limit')).status).toBe(429);
    } finally {
      sandbox.setFaults({ rateLimit: undefined });
    }
  });

  it('latencyMs delays answers, and every request is logged', async () => {
    sandbox.setFaults({ latencyMs: 120 });
    slept.length = 0;
    await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts');
    sandbox.setFaults({ latencyMs: 0 });
    // The answer waited on the sandbox's clock for the latency asked, once.
    expect(slept).toEqual([120]);
    expect(lines.at(-1)).toMatch(/^GET \/v1\/ads\/ad-accounts 200 \d+ms$/);
  });

  it('token requests are not subject to ads faults', async () => {
    sandbox.setFaults({ failRate: 1, throttleRate: 1 });
    try {
      await expect(getToken(sandbox.url)).resolves.toBeTruthy();
    } finally {
      sandbox.setFaults({ failRate: 0, throttleRate: 0 });
    }
  });
});
