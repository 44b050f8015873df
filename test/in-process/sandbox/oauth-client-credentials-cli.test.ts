// The client-credentials token response now carries a refresh token (spec 4.2). The CLI keeps
// it in the 0600 config like any token, never prints it (not even with --debug), and still
// renews an expired client-credentials token by asking for a new one.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

interface StoredProfile {
  token?: { access_token: string; refresh_token?: string; expires_at: number };
}

describe('a client-credentials sign-in with a refresh token', () => {
  it('is stored, never printed, and renewed with client credentials when it expires', async () => {
    const user = new TestUser(sandbox);
    const login = await user.run(['auth', 'login', '--client-credentials', '--debug']);
    expect(login.code).toBe(0);
    const profileOf = () => Object.values(user.readConfig().profiles as Record<string, StoredProfile>).find((p) => p.token)!;
    const refresh = profileOf().token!.refresh_token;
    expect(refresh).toMatch(/^[\w-]{20,}$/);
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);

    const status = await user.run(['auth', 'status', '--json']);
    const list = await user.run(['ads', 'accounts', 'list', '--debug']);
    expect(list.code).toBe(0);

    // Expired: the next command gets a new token (a client-credentials grant), and prints neither secret.
    const config = user.readConfig() as { profiles: Record<string, StoredProfile> };
    for (const profile of Object.values(config.profiles)) if (profile.token) profile.token.expires_at = Date.now() - 1000;
    user.writeConfig(config);
    const before = sandbox.stats.tokenRequests;
    const renewed = await user.run(['ads', 'accounts', 'list', '--debug']);
    expect(renewed.code).toBe(0);
    expect(sandbox.stats.tokenRequests).toBe(before + 1);
    expect(renewed.stderr).toMatch(/grant_type=client_credentials/);
    const next = profileOf().token!;
    expect(next.expires_at).toBeGreaterThan(Date.now());

    for (const output of [login, status, list, renewed]) {
      expect(output.stdout + output.stderr).not.toContain(refresh);
      expect(output.stdout + output.stderr).not.toContain(next.refresh_token);
    }
  });
});
