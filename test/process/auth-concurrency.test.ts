// Many `platform` processes at once on one config, as `xargs -P 8` runs them: a rotating
// refresh token is used once, and concurrent logins lose no profile and no token. Here the
// secrets are in the config file (PLATFORM_SECURE_STORAGE=file); keyring-races.test.ts runs
// the same races with them in a real keyring.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser } from '../helpers/cli.js';
import { httpBrowser, startCli } from '../helpers/auth.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

type Token = { access_token: string; refresh_token?: string; expires_at: number };

/** Runs the built CLI as a process on `user`'s config. */
function platform(user: TestUser, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  const target = user.sandbox;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: user.configDir,
        PLATFORM_CONFIG_DIR: user.configDir,
        PLATFORM_BASE_URL: target.url,
        PLATFORM_SECURE_STORAGE: 'file',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

async function signedIn(): Promise<TestUser> {
  const user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET, PLATFORM_SECURE_STORAGE: 'file' });
  const login = await startCli(user, ['auth', 'login', '--profile', 'work', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--base-url', sandbox.url], {
    openUrl: httpBrowser().openUrl,
  }).done;
  if (login.code !== 0) throw new Error(login.stderr);
  return user;
}

describe('concurrent processes on one config', () => {
  it.each([8, 16, 32])(
    '%i processes that all need a refresh: all exit 0, one refresh, still signed in',
    async (count) => {
      const user = await signedIn();
      const config = user.readConfig() as ReturnType<TestUser['readConfig']> & { profiles: Record<string, { secrets?: string }> };
      expect(config.profiles.work!.secrets).toBe('file');
      config.profiles.work!.token!.expires_at = Date.now() - 1000;
      user.writeConfig(config);
      const before = sandbox.stats.tokenRequests;
      const results = await Promise.all(Array.from({ length: count }, () => platform(user, ['ads', 'accounts', 'list', '--profile', 'work', '-o', 'json'])));
      expect(
        results.map((r) => r.code),
        results.map((r) => r.stderr).join('\n'),
      ).toEqual(results.map(() => 0));
      expect(sandbox.stats.tokenRequests - before).toBe(1);
      const after = user.readConfig().profiles.work!.token as Token;
      expect(after.refresh_token).toBeTruthy();
      expect(after.expires_at).toBeGreaterThan(Date.now());
      expect((await platform(user, ['ads', 'accounts', 'list', '--profile', 'work'])).code).toBe(0);
    },
    120_000,
  );

  it('40 concurrent logins to 8 profiles, 5 rounds: no profile and no token lost', async () => {
    // 200 client-credentials logins: more than the sandbox's usual 100 per client per hour.
    const busy = await sandboxOnFreePort({ tokenRequestsPerHour: 1000 });
    onTestFinished(() => busy.close());
    const user = new TestUser(busy);
    const profiles = Array.from({ length: 8 }, (_, i) => `p${i}`);
    const lost: string[] = [];
    for (let round = 1; round <= 5; round++) {
      const logins = Array.from({ length: 40 }, (_, i) =>
        platform(user, ['auth', 'login', '--client-credentials', '--profile', profiles[i % 8]!, '--client-id', SANDBOX_DEMO_CLIENT_ID], {
          PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET,
        }),
      );
      const results = await Promise.all(logins);
      expect(
        results.map((r) => r.code),
        results.map((r) => r.stderr).join('\n'),
      ).toEqual(results.map(() => 0));
      const config = user.readConfig() as ReturnType<TestUser['readConfig']> & { profiles: Record<string, { secrets?: string }> };
      for (const name of profiles) {
        if (!config.profiles[name]) lost.push(`round ${round}: profile ${name}`);
        else if (config.profiles[name].secrets !== 'file') lost.push(`round ${round}: ${name} not kept in the file`);
        else if (!config.profiles[name].token?.access_token) lost.push(`round ${round}: token of ${name}`);
      }
    }
    expect(lost).toEqual([]);
    expect(fs.readdirSync(user.configDir).filter((name) => name.includes('.tmp-'))).toEqual([]);
  }, 180_000);
});

describe('the config file', () => {
  it('is made 0600 again when a command reads it, and temp files of a killed write are removed by the next write', async () => {
    const user = new TestUser(sandbox);
    expect((await user.run(['auth', 'login', '--client-credentials'])).code).toBe(0);
    fs.chmodSync(user.configPath, 0o644);
    fs.writeFileSync(`${user.configPath}.tmp-1234567890abcdef`, '{"half": ');
    const list = await user.run(['ads', 'accounts', 'list']);
    expect(list.code).toBe(0);
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);
    expect((await user.run(['auth', 'logout'])).code).toBe(0);
    expect(fs.readdirSync(user.configDir).filter((name) => name.includes('.tmp-'))).toEqual([]);
  });
});
