// Snapshots of the whole sandbox state over /_sandbox and through the CLI: a restore gives
// back exactly the saved dump (rides included), reset gives the seeded data, and state
// changes need the console's token and the sandbox's own host name.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'node:http';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { TestUser } from '../../helpers/cli.js';
import { api, getToken } from '../../helpers/sandbox.js';

describe('sandbox snapshots', () => {
  let sandbox: Sandbox;
  let token: string;
  let account: string;
  const now = Date.parse('2026-03-01T00:00:00Z');
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, now: () => now });
    token = await getToken(sandbox.url);
    account = (await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
  });
  afterAll(() => sandbox.close());

  const dump = async () => (await fetch(`${sandbox.url}/_sandbox/state`)).text();
  const post = (path: string, body: unknown = {}, headers: Record<string, string> = { 'x-sandbox-token': sandbox.consoleToken }) =>
    fetch(`${sandbox.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  const createCampaign = (name: string) =>
    api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, { campaigns: [{ name, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' }] });

  it('restore round-trips the state exactly, after writes and a reset', async () => {
    await createCampaign('before snapshot');
    const saved = await dump();
    expect((await post('/_sandbox/snapshots', { name: 'one' })).status).toBe(201);
    await createCampaign('after snapshot');
    await api(sandbox.url, token, 'PATCH', `/v1/ads/${account}/campaigns`, {
      campaigns: [{ campaign_id: JSON.parse(saved).campaigns[0].value.campaign_id, configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' }],
    });
    expect(await dump()).not.toBe(saved);
    const restored = await post('/_sandbox/snapshots/one/restore');
    expect(restored.status).toBe(200);
    expect(await dump()).toBe(saved);
    // The restored store serves the API: the later campaign is gone, the earlier one is there.
    const names = (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=2000`)).body.campaigns.map((c: { name: string }) => c.name);
    expect(names).toContain('before snapshot');
    expect(names).not.toContain('after snapshot');

    expect((await post('/_sandbox/reset')).status).toBe(200);
    const fresh = await startSandbox({ port: 0, now: () => now });
    try {
      expect(await dump()).toBe(await (await fetch(`${fresh.url}/_sandbox/state`)).text());
    } finally {
      await fresh.close();
    }
    // Snapshots outlive a reset.
    expect((await post('/_sandbox/snapshots/one/restore')).status).toBe(200);
    expect(await dump()).toBe(saved);
  });

  it('state changes need the session token; an unknown snapshot or a bad name is refused', async () => {
    expect((await post('/_sandbox/reset', {}, {})).status).toBe(403);
    expect((await post('/_sandbox/reset', {}, { 'x-sandbox-token': 'x'.repeat(sandbox.consoleToken.length) })).status).toBe(403);
    expect((await post('/_sandbox/snapshots/nope/restore')).status).toBe(404);
    expect((await post('/_sandbox/snapshots', { name: '../etc' })).status).toBe(400);
    const session = (await (await fetch(`${sandbox.url}/_sandbox/session`)).json()) as { token: string };
    expect(session.token).toBe(sandbox.consoleToken);
  });

  it('answers the console only to its own host name (DNS rebinding)', async () => {
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${sandbox.url}/_sandbox/session`, { headers: { host: `attacker.example:${sandbox.port}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(421);
  });

  it('platform sandbox snapshot save/restore/list and reset drive a running sandbox', async () => {
    const user = new TestUser(sandbox);
    const before = await dump();
    const saved = await user.run(['sandbox', 'snapshot', 'save', 'cli', '--url', sandbox.url]);
    expect(saved.stderr).toMatch(/Saved snapshot cli \(\d+ campaigns\) in \d+ ms/);
    expect(saved.code).toBe(0);
    await createCampaign('cli change');
    const restored = await user.run(['sandbox', 'snapshot', 'restore', 'cli', '--url', sandbox.url]);
    expect(restored.code).toBe(0);
    expect(await dump()).toBe(before);
    const listed = await user.run(['sandbox', 'snapshot', 'list', '--url', sandbox.url, '-o', 'json']);
    expect(JSON.parse(listed.stdout).map((s: { name: string }) => s.name)).toContain('cli');
    const missing = await user.run(['sandbox', 'snapshot', 'restore', 'missing', '--url', sandbox.url]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/no snapshot named "missing"/);
    const bad = await user.run(['sandbox', 'snapshot', 'save', '.hidden', '--url', sandbox.url]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/NAME must be/);
    const reset = await user.run(['sandbox', 'reset', '--url', sandbox.url]);
    expect(reset.code).toBe(0);
    expect(reset.stderr).toMatch(/Reset the sandbox to its seeded data/);
  });
});
