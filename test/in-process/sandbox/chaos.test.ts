// Reproducible, targeted chaos: with one --chaos-seed the Nth request to a route meets the
// same fault (500, drop, 429, failed batch items, --fault rules) in every run, however the
// requests to different routes interleave; the request log records what was injected.
import { describe, expect, it } from 'vitest';
import { startSandbox } from '../../../src/sandbox/index.js';
import { parseFaultRule, type FaultRule } from '../../../src/sandbox/fault-rules.js';
import { TestUser } from '../../helpers/cli.js';
import { getToken } from '../../helpers/sandbox.js';
import { scaled } from '../../helpers/time-scale.js';

const rule = (text: string): FaultRule => {
  const parsed = parseFaultRule(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
};

interface Logged {
  route?: string;
  n?: number;
  fault?: string;
  status: number;
}

/** Runs `order` (G: list accounts, P: create a 4-item batch) and returns the log of API requests per route. */
async function chaosRun(chaosSeed: number, order: string): Promise<Record<string, string[]>> {
  const sandbox = await startSandbox({
    port: 0,
    chaosSeed,
    failRate: 0.25,
    throttleRate: 0.1,
    itemFailRate: 0.2,
    faultRules: [rule('POST /v1/ads/*/campaigns=503:0.3')],
  });
  try {
    const token = await getToken(sandbox.url);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    // The account id comes from the seeded data, the same in every run.
    const account = JSON.parse(await (await fetch(`${sandbox.url}/_sandbox/state`)).text()).accounts[0].value.ad_account_id;
    const campaigns = Array.from({ length: 4 }, (_, i) => ({ name: `c${i}`, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }));
    // All at once: only the order within a route counts, and the requests to one route are
    // alike, so whichever arrives Nth meets the Nth request's fault.
    const answers = [...order].map(
      (kind) =>
        (kind === 'G'
          ? fetch(`${sandbox.url}/v1/ads/ad-accounts`, { headers })
          : fetch(`${sandbox.url}/v1/ads/${account}/campaigns`, { method: 'POST', headers, body: JSON.stringify({ campaigns }) })
        )
          .then((res) => res.arrayBuffer())
          .catch(() => undefined), // a dropped connection
    );
    await Promise.all(answers);
    const log = (await (await fetch(`${sandbox.url}/_sandbox/requests`)).json()) as { requests: Logged[] };
    const byRoute: Record<string, string[]> = {};
    for (const e of log.requests.filter((e) => e.route).sort((a, b) => a.n! - b.n!)) (byRoute[e.route!] ??= []).push(`#${e.n} ${e.fault ?? 'none'}`);
    return byRoute;
  } finally {
    await sandbox.close();
  }
}

describe('seeded chaos', () => {
  it('the same --chaos-seed injects the same faults at the same requests, whatever the interleaving', { timeout: scaled(30_000) }, async () => {
    const order = 'GPGPPGGPPPGGPGPPGPGGPPGPPG';
    const shuffled = [...order].sort().join(''); // every G first, then every P
    const first = await chaosRun(42, order);
    const again = await chaosRun(42, shuffled);
    expect(again).toEqual(first);
    const faults = Object.values(first)
      .flat()
      .filter((f) => !f.endsWith(' none'));
    // Each kind of fault shows up in the log, the rule's by name.
    expect(faults.some((f) => / 500$| drop| 429$/.test(f))).toBe(true);
    expect(faults.some((f) => f.includes('503 (--fault POST /v1/ads/*/campaigns=503:0.3)'))).toBe(true);
    expect(faults.some((f) => /items failed/.test(f))).toBe(true);
    const other = await chaosRun(43, order);
    expect(other).not.toEqual(first);
  });

  it('a --fault rule hits only its route; rate 1 answers every request with its status', async () => {
    const sandbox = await startSandbox({ port: 0, faultRules: [rule('GET /v1/ads/ad-accounts=429')] });
    try {
      const token = await getToken(sandbox.url);
      const res = await fetch(`${sandbox.url}/v1/ads/ad-accounts`, { headers: { authorization: `Bearer ${token}` } });
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('1');
      const other = await fetch(`${sandbox.url}/v1.2/products?latitude=37.77&longitude=-122.41`, { headers: { authorization: `Bearer ${token}` } });
      expect(other.status).not.toBe(429);
    } finally {
      await sandbox.close();
    }
  });

  it('rules parse as documented and a bad one is one line naming --fault, exit 2', async () => {
    expect(rule('POST /v1/ads/*/campaigns=500:0.2')).toMatchObject({ method: 'POST', segments: ['v1', 'ads', '*', 'campaigns'], outcome: 500, rate: 0.2 });
    expect(rule('/v1.2/**=drop')).toMatchObject({ method: undefined, outcome: 'drop', rate: 1 });
    expect(parseFaultRule('POST /x=200')).toMatch(/outcome must be an HTTP status 400-599 or drop/);
    expect(parseFaultRule('POST /x=500:2')).toMatch(/rate must be a number from 0 to 1/);
    const sandbox = await startSandbox({ port: 0 });
    try {
      const result = await new TestUser(sandbox).run(['sandbox', 'serve', '--port', '0', '--fault', 'POST campaigns=500']);
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(/--fault "POST campaigns=500": the path must start with \//);
    } finally {
      await sandbox.close();
    }
  });
});
