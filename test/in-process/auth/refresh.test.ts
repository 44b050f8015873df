import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { getToken } from '../../helpers/sandbox.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { httpBrowser, startCli } from '../../helpers/auth.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

type Token = { access_token: string; refresh_token?: string; expires_at: number; grant: string };
type Config = { profiles: Record<string, { token?: Token; grant?: string }> };

/** A user signed in with the browser to profile `work`. */
async function signedIn(): Promise<TestUser> {
  const user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
  const login = await startCli(user, ['auth', 'login', '--profile', 'work', '--client-id', 'sandbox-demo-client', '--base-url', sandbox.url], {
    openUrl: httpBrowser().openUrl,
  }).done;
  if (login.code !== 0) throw new Error(login.stderr);
  return user;
}

const tokenOf = (user: TestUser) => (user.readConfig() as unknown as Config).profiles.work!.token!;

function setToken(user: TestUser, patch: Partial<Token>): void {
  const config = user.readConfig() as unknown as Config;
  Object.assign(config.profiles.work!.token!, patch);
  user.writeConfig(config);
}

describe('renewing a browser sign-in', () => {
  it('refreshes a token within 5 minutes of expiry before the call; the old refresh token is retired', async () => {
    const user = await signedIn();
    const before = tokenOf(user);
    setToken(user, { expires_at: Date.now() + 4 * 60 * 1000 });
    sandbox.resetStats();
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(sandbox.stats.tokenRequests).toBe(1);
    expect(sandbox.stats.requests.map((r) => r.status)).toEqual([200, 200]);
    const after = tokenOf(user);
    expect(after.grant).toBe('authorization_code');
    expect(after.access_token).not.toBe(before.access_token);
    expect(after.refresh_token).not.toBe(before.refresh_token);
    expect(after.expires_at).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    // Still the same user.
    expect((await user.json<Array<{ profile: string; user: string }>>(['auth', 'status'])).find((p) => p.profile === 'work')!.user).toBe(
      'Dana Demo (dana.demo@example.com)',
    );
  });

  it('a token with more than 5 minutes left is used as is', async () => {
    const user = await signedIn();
    setToken(user, { expires_at: Date.now() + 6 * 60 * 1000 });
    sandbox.resetStats();
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    expect(sandbox.stats.tokenRequests).toBe(0);
  });

  it('after a 401 the call is retried once after a refresh', async () => {
    const user = await signedIn();
    const before = tokenOf(user);
    sandbox.revokeTokens(); // access tokens only: the refresh token still works
    sandbox.resetStats();
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(0);
    expect(sandbox.stats.requests.map((r) => `${r.path} ${r.status}`)).toEqual(['/v1/ads/ad-accounts 401', '/oauth/v2/token 200', '/v1/ads/ad-accounts 200']);
    expect(tokenOf(user).refresh_token).not.toBe(before.refresh_token);
  });

  it('a refused refresh exits 4 and names the command to run; the dead tokens are dropped', async () => {
    const user = await signedIn();
    const stale = tokenOf(user).refresh_token!;
    setToken(user, { expires_at: Date.now() - 1000, refresh_token: 'revoked-refresh-token' });
    const result = await user.run(['ads', 'accounts', 'list', '--debug']);
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(
      /the sign-in of profile work could not be renewed: invalid_grant: unknown, used or revoked refresh token; run `platform auth login --profile work` to sign in again$/m,
    );
    expect(result.stderr).not.toContain('revoked-refresh-token');
    expect(result.stderr).not.toContain(stale);
    expect(tokenOf(user)).toBeUndefined();
    const again = await user.run(['ads', 'accounts', 'list']);
    expect(again.code).toBe(4);
    expect(again.stderr).toMatch(/^profile work is not signed in; run `platform auth login --profile work` to sign in again$/m);
  });

  it('logout removes the tokens; the next call says to sign in with the browser again', async () => {
    const user = await signedIn();
    expect((await user.run(['auth', 'logout'])).code).toBe(0);
    expect(tokenOf(user)).toBeUndefined();
    const result = await user.run(['ads', 'accounts', 'list'], { env: { PLATFORM_CLIENT_SECRET: undefined } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/run `platform auth login --profile work`/);
    const status = await user.json<Array<{ profile: string; user: string; source: string }>>(['auth', 'status'], {
      env: { PLATFORM_CLIENT_SECRET: undefined },
    });
    expect(status.find((p) => p.profile === 'work')).toMatchObject({ user: '', source: 'none' });
  });

  it('PLATFORM_TOKEN overrides the stored token for one command', async () => {
    const user = await signedIn();
    const stored = tokenOf(user);
    const ci = await getToken(sandbox.url);
    sandbox.resetStats();
    const result = await user.run(['ads', 'accounts', 'list'], { env: { PLATFORM_TOKEN: ci } });
    expect(result.code).toBe(0);
    expect(sandbox.stats.tokenRequests).toBe(0);
    expect(tokenOf(user)).toEqual(stored);
    const status = await user.json<Array<{ profile: string; grant: string; source: string }>>(['auth', 'status'], { env: { PLATFORM_TOKEN: ci } });
    expect(status.find((p) => p.profile === 'work')).toMatchObject({ grant: 'token', source: 'env PLATFORM_TOKEN' });
    const refused = await user.run(['ads', 'accounts', 'list'], { env: { PLATFORM_TOKEN: 'not-a-token' } });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/PLATFORM_TOKEN was refused/);
    expect(tokenOf(user)).toEqual(stored);
  });

  it('auth login --client-credentials still works beside a browser profile', async () => {
    const user = await signedIn();
    const result = await user.run([
      'auth',
      'login',
      '--client-credentials',
      '--profile',
      'svc',
      '--client-id',
      'sandbox-demo-client',
      '--base-url',
      sandbox.url,
    ]);
    expect(result.code).toBe(0);
    const status = await user.json<Array<{ profile: string; grant: string }>>(['auth', 'status']);
    expect(status.filter((p) => ['svc', 'work'].includes(p.profile)).map((p) => [p.profile, p.grant])).toEqual([
      ['svc', 'client_credentials'],
      ['work', 'authorization_code'],
    ]);
  });
});
