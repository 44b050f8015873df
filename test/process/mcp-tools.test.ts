// `platform mcp` tools beyond ads writes, over stdio with the SDK's client: reports, rider,
// webhooks_verify (the secret named, never shown), the resources, the confirmation asked
// through elicitation before ads_apply, tool errors in the CLI's words, and --debug's log.
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv } from '../helpers/cli-process.js';
import { callTool, mcpOverStdio, toolError, type StdioMcp } from '../helpers/mcp.js';
import { appliesUnasked, confirmsBeforeApply, type ConfirmTarget } from '../helpers/mcp-flows.js';
import { signedInUser } from '../helpers/rider.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const SECRET = 'whsec-test-not-to-be-seen';

let dir: string;
let sandbox: Sandbox;
const open: Array<{ close: () => Promise<void> }> = [];

beforeAll(async () => {
  dir = tempDir('platform-mcp-tools-');
  // (report jobs done in 20 ms of simulated 20 s)
  sandbox = await sandboxOnFreePort({ timeScale: 1000 });
});
afterAll(async () => {
  await Promise.all(open.map((m) => m.close()));
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => ({ ...cliEnv(dir, sandbox.url), PLATFORM_WEBHOOK_SECRET: SECRET });
async function server(args: string[] = []): Promise<StdioMcp> {
  const started = await mcpOverStdio(args, env());
  open.push(started);
  return started;
}

describe('platform mcp tools', () => {
  it('runs a report with typed rows, sorted and cut', { timeout: scaled(30_000) }, async () => {
    const mcp = await server(['--toolsets', 'reports']);
    const { rows } = await callTool<{ rows: Array<{ campaign_id: string; clicks: number }> }>(mcp.client, 'ads_reports_run', {
      account: ACCOUNT,
      type: 'CAMPAIGN_PERFORMANCE',
      columns: ['campaign_id', 'clicks'],
      unit: 'summary',
      last: '7d',
      sort: ['-clicks'],
      limit: 3,
    });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(3);
    expect(typeof rows[0]!.clicks).toBe('number');
    expect(rows.map((r) => r.clicks)).toEqual([...rows.map((r) => r.clicks)].sort((a, b) => b - a));
    const bad = await toolError(mcp.client, 'ads_reports_run', { account: ACCOUNT, type: 'CAMPAIGN_PERFORMANCE', last: 'soon' });
    expect(bad).toMatch(/^last: expected a count .*\[usage, exit 2\]$/);
  });

  it('verifies a webhook signature with a named secret, never showing it', { timeout: scaled(30_000) }, async () => {
    const mcp = await server(['--toolsets', 'webhooks', '--debug']);
    const body = '{"event_id":"e1","event_type":"ads.campaign.updated"}';
    const signature = createHmac('sha256', SECRET).update(body).digest('hex');
    const good = await mcp.client.callTool({ name: 'webhooks_verify', arguments: { body, signature } });
    expect(good.structuredContent).toMatchObject({ valid: true, secret_source: 'PLATFORM_WEBHOOK_SECRET' });
    const badSig = await callTool<{ valid: boolean }>(mcp.client, 'webhooks_verify', { body: `${body} `, signature });
    expect(badSig.valid).toBe(false);
    expect(JSON.stringify(good)).not.toContain(SECRET);
    expect(mcp.stderr()).toContain('mcp: webhooks_verify ok');
    expect(mcp.stderr()).not.toContain(SECRET);
  });

  it('answers the rider tools', { timeout: scaled(30_000) }, async () => {
    // The rider API acts for a user: one signed in with `platform auth login`, whose profile the server uses.
    const user = await signedInUser(sandbox, 'profile');
    const riderEnv = {
      PATH: process.env.PATH ?? '',
      HOME: user.configDir,
      PLATFORM_CONFIG_DIR: user.configDir,
      PLATFORM_BASE_URL: sandbox.url,
      ...(user.env as Record<string, string>),
    };
    const mcp = await mcpOverStdio(['--toolsets', 'rider'], riderEnv);
    open.push(mcp);
    const products = await callTool<{ items: Array<{ product_id: string }>; next_cursor: string | null }>(mcp.client, 'rider_products_list', {
      latitude: 37.7749,
      longitude: -122.4194,
      limit: 1,
    });
    expect(products.items).toHaveLength(1);
    const prices = await callTool<{ prices: unknown[] }>(mcp.client, 'rider_estimate_price', {
      start_latitude: 37.7749,
      start_longitude: -122.4194,
      end_latitude: 37.7849,
      end_longitude: -122.4094,
    });
    expect(prices.prices.length).toBeGreaterThan(0);
  });

  const confirmTarget = (): ConfirmTarget => ({
    sandbox,
    account: ACCOUNT,
    connect: async (extra, elicit) => {
      const mcp = await mcpOverStdio(['--allow-writes', ...extra], env(), elicit);
      open.push(mcp);
      return mcp.client;
    },
  });

  it('asks nothing before ads_apply with --no-confirm', { timeout: scaled(30_000) }, async () => {
    await appliesUnasked(confirmTarget());
  });

  it('asks the person before ads_apply, and serves runs, plans and quota as resources', { timeout: scaled(30_000) }, async () => {
    const { client, plan, run: applied } = await confirmsBeforeApply(confirmTarget());
    const run = await client.readResource({ uri: `platform://runs/${applied}` });
    expect(JSON.parse((run.contents[0] as { text: string }).text)).toMatchObject({ run: { run: applied, results: { ok: 2 } } });
    const stored = await client.readResource({ uri: `platform://plans/${plan.plan_id}` });
    expect((stored.contents[0] as { text: string }).text.split('\n')[0]).toContain(`"id":"${plan.plan_id}"`);
    const quota = await client.readResource({ uri: 'platform://quota' });
    const hosts = (JSON.parse((quota.contents[0] as { text: string }).text) as { hosts: Array<{ host: string; requests: number }> }).hosts;
    expect(hosts[0]!.host).toBe(new URL(sandbox.url).host);
    expect(hosts[0]!.requests).toBeGreaterThan(0);
  });
});
