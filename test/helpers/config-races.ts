// Many `platform` processes at once on one config, as `xargs -P 8` runs them: a rotating
// refresh token is used once, and concurrent logins lose no profile and no token. The secrets
// are in the config file (PLATFORM_SECURE_STORAGE=file); test/heavy/keyring-races.test.ts runs
// the same races with them in a real keyring. README's suite runs these at the size a user's
// script reaches (test/process/auth-concurrency.test.ts), the heavy tier at scale.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser } from './cli.js';
import { httpBrowser, startCli } from './auth.js';
import { scaled } from './time-scale.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

export interface RaceSizes {
  /** Process counts that all need one refresh at once. */
  refreshes: number[];
  /** Concurrent `auth login --client-credentials` processes, spread over `profiles`, repeated `rounds` times. */
  logins: { processes: number; profiles: number; rounds: number };
}

export function describeConfigRaces(sizes: RaceSizes): void {
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
    it.each(sizes.refreshes)(
      '%i processes that all need a refresh: all exit 0, one refresh, still signed in',
      async (count) => {
        const user = await signedIn();
        const config = user.readConfig() as ReturnType<TestUser['readConfig']> & { profiles: Record<string, { secrets?: string }> };
        expect(config.profiles.work!.secrets).toBe('file');
        await refreshAtOnce(user, sandbox, count, (args) => platform(user, args));
        const after = user.readConfig().profiles.work!.token as Token;
        expect(after.refresh_token).toBeTruthy();
        expect(after.expires_at).toBeGreaterThan(Date.now());
        expect((await platform(user, ['ads', 'accounts', 'list', '--profile', 'work'])).code).toBe(0);
      },
      scaled(120_000),
    );

    const { processes, profiles: profileCount, rounds } = sizes.logins;
    it(
      `${processes} concurrent logins to ${profileCount} profiles, ${rounds} rounds: no profile and no token lost`,
      async () => {
        // Up to 200 client-credentials logins: more than the sandbox's usual 100 per client per hour.
        const busy = await sandboxOnFreePort({ tokenRequestsPerHour: 1000 });
        onTestFinished(() => busy.close());
        const user = new TestUser(busy);
        const profiles = Array.from({ length: profileCount }, (_, i) => `p${i}`);
        const lost: string[] = [];
        for (let round = 1; round <= rounds; round++) {
          const logins = Array.from({ length: processes }, (_, i) =>
            platform(user, ['auth', 'login', '--client-credentials', '--profile', profiles[i % profileCount]!, '--client-id', SANDBOX_DEMO_CLIENT_ID], {
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
      },
      scaled(180_000),
    );
  });
}

/**
 * Expires profile work's token and runs `count` commands at once that all need it: every one
 * exits 0, and the sandbox saw one refresh (the rotating refresh token was used once).
 */
export async function refreshAtOnce(
  user: TestUser,
  sandbox: Sandbox,
  count: number,
  run: (args: string[]) => Promise<{ code: number | null; stderr: string }>,
): Promise<void> {
  const config = user.readConfig();
  config.profiles.work!.token!.expires_at = Date.now() - 1000;
  user.writeConfig(config);
  const before = sandbox.stats.tokenRequests;
  const results = await Promise.all(Array.from({ length: count }, () => run(['ads', 'accounts', 'list', '--profile', 'work', '-o', 'json'])));
  expect(
    results.map((r) => r.code),
    results.map((r) => r.stderr).join('\n'),
  ).toEqual(results.map(() => 0));
  expect(sandbox.stats.tokenRequests - before).toBe(1);
}
