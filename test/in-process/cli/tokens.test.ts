import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

describe('tokens and the config file', () => {
  it('a second command reuses the cached token', async () => {
    const user = new TestUser(sandbox);
    sandbox.resetStats();
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    expect(sandbox.stats.tokenRequests).toBe(1);
  });

  it('keeps the config file 0600 in a 0700 directory', async () => {
    const user = new TestUser(sandbox);
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(user.configDir).mode & 0o777).toBe(0o700);
  });

  it('replaces an expired token without the user noticing', async () => {
    const user = new TestUser(sandbox);
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    const config = user.readConfig();
    const oldToken = config.profiles.local!.token!.access_token;
    config.profiles.local!.token!.expires_at = Date.now() - 1000;
    user.writeConfig(config);
    sandbox.resetStats();
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(sandbox.stats.tokenRequests).toBe(1);
    expect(user.readConfig().profiles.local!.token!.access_token).not.toBe(oldToken);
  });

  it('after a 401 for a token the server dropped, fetches a new one and retries once', async () => {
    const user = new TestUser(sandbox);
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    sandbox.revokeTokens();
    sandbox.resetStats();
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(0);
    expect(sandbox.stats.tokenRequests).toBe(1);
    expect(sandbox.stats.requests.map((r) => r.status)).toEqual([401, 200, 200]);
  });

  it('--debug traces requests with every token and secret redacted', async () => {
    const user = new TestUser(sandbox);
    const result = await user.run(['ads', 'accounts', 'list', '--debug']);
    expect(result.code).toBe(0);
    const token = user.readConfig().profiles.local!.token!.access_token;
    expect(result.stderr).toMatch(/> POST .*\/oauth\/v2\/token/);
    expect(result.stderr).toMatch(/> GET .*\/v1\/ads\/ad-accounts/);
    expect(result.stderr).toContain('[REDACTED]');
    expect(result.stderr).not.toContain(token);
    expect(result.stderr).not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
  });

  it('auth login stores the profile; status shows grant and scopes but never the token; token prints it; logout removes it', async () => {
    const user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
    const login = await user.run([
      'auth',
      'login',
      '--client-credentials',
      '--profile',
      'work',
      '--client-id',
      'sandbox-demo-client',
      '--base-url',
      sandbox.url,
      '--scopes',
      'ads.campaigns.read',
    ]);
    expect(login.code).toBe(0);
    expect(login.stderr).toMatch(/Logged in to profile work/);
    const status = await user.json<Array<{ profile: string; active: boolean; grant: string; scopes: string[]; expires_at: string; source: string }>>([
      'auth',
      'status',
    ]);
    const work = status.find((p) => p.profile === 'work')!;
    expect(work).toMatchObject({ active: true, grant: 'client_credentials', scopes: ['ads.campaigns.read'], source: 'config' });
    expect(Date.parse(work.expires_at)).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    const token = user.readConfig().profiles.work!.token!.access_token;
    const statusText = await user.run(['auth', 'status'], { tty: true });
    expect(statusText.stdout + statusText.stderr).not.toContain(token);
    const printed = await user.run(['auth', 'token']);
    expect(printed.stdout.trim()).toBe(token);
    expect((await user.run(['auth', 'logout'])).code).toBe(0);
    expect(user.readConfig().profiles.work!.token).toBeUndefined();
  });

  it('a refused client secret exits 4 and names the login command', async () => {
    const user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: 'wrong-secret' });
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/invalid_client: .*platform auth login --client-credentials --profile local/);
    expect(result.stderr).not.toContain('wrong-secret');
  });
});
