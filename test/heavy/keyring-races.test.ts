// The races of test/helpers/config-races.ts with the secrets in a real keyring: many `platform`
// processes at once, each reading and writing the Secret Service under the config lock.
// A rotating refresh token is used once and no one is logged out; concurrent logins lose
// no profile and no secret, and the config file holds none of them.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser } from '../helpers/cli.js';
import { secretServicePresent, secretServiceSkipNote, startSecretService, type SecretService } from '../helpers/secret-service.js';
import { httpBrowser, startCli } from '../helpers/auth.js';
import { refreshAtOnce } from '../helpers/config-races.js';
import { scaled } from '../helpers/time-scale.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

let sandbox: Sandbox;
let keyring: SecretService;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort({ tokenRequestsPerHour: 1000 });
  if (secretServicePresent) keyring = await startSecretService();
}, scaled(30_000));
afterAll(async () => {
  await keyring?.stop();
  await sandbox.close();
});

type StoredProfile = { secrets?: string; client_secret?: string; token?: { access_token?: string; refresh_token?: string; expires_at: number } };
const profilesOf = (user: TestUser) => (user.readConfig() as unknown as { profiles: Record<string, StoredProfile> }).profiles;

function platform(user: TestUser, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], {
      env: { PATH: process.env.PATH ?? '', ...keyring.env, PLATFORM_CONFIG_DIR: user.configDir, PLATFORM_BASE_URL: user.sandbox.url, ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code) => resolve({ code, stderr }));
  });
}

describe.skipIf(!secretServicePresent)(`races with the secrets in the keyring${secretServiceSkipNote}`, () => {
  it.each([8, 32])(
    '%i processes that all need a refresh: all exit 0, one refresh, still signed in, nothing secret in the file',
    async (count) => {
      const user = new TestUser(sandbox, { ...keyring.env, PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
      const login = await startCli(user, ['auth', 'login', '--profile', 'work', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--base-url', sandbox.url], {
        openUrl: httpBrowser().openUrl,
      }).done;
      expect(login.code, login.stderr).toBe(0);
      expect(profilesOf(user).work!.secrets).toBe('keyring');
      await refreshAtOnce(user, sandbox, count, (args) => platform(user, args));
      const refresh = keyring.lookup(user.configDir, 'work', 'refresh_token');
      expect(refresh).toBeTruthy();
      expect(profilesOf(user).work!.token!.expires_at).toBeGreaterThan(Date.now());
      const file = fs.readFileSync(user.configPath, 'utf8');
      for (const secret of keyring.all(user.configDir)) expect(file).not.toContain(secret);
      expect((await platform(user, ['ads', 'accounts', 'list', '--profile', 'work'])).code).toBe(0);
    },
    scaled(120_000),
  );

  it(
    '40 concurrent logins to 8 profiles, 2 rounds: no profile and no secret lost, none in the file',
    async () => {
      const user = new TestUser(sandbox);
      const profiles = Array.from({ length: 8 }, (_, i) => `p${i}`);
      const lost: string[] = [];
      for (let round = 1; round <= 2; round++) {
        const results = await Promise.all(
          Array.from({ length: 40 }, (_, i) =>
            platform(user, ['auth', 'login', '--client-credentials', '--profile', profiles[i % 8]!, '--client-id', SANDBOX_DEMO_CLIENT_ID], {
              PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET,
            }),
          ),
        );
        expect(
          results.map((r) => r.code),
          results.map((r) => r.stderr).join('\n'),
        ).toEqual(results.map(() => 0));
        const stored = profilesOf(user);
        for (const name of profiles) {
          if (stored[name]?.secrets !== 'keyring') lost.push(`round ${round}: profile ${name}`);
          else if (!keyring.lookup(user.configDir, name, 'access_token')) lost.push(`round ${round}: token of ${name}`);
          else if (keyring.lookup(user.configDir, name, 'client_secret') !== SANDBOX_DEMO_CLIENT_SECRET) lost.push(`round ${round}: secret of ${name}`);
        }
      }
      expect(lost).toEqual([]);
      const file = fs.readFileSync(user.configPath, 'utf8');
      expect(file).not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
      for (const secret of keyring.all(user.configDir)) expect(file).not.toContain(secret);
      expect(fs.readdirSync(user.configDir).filter((name) => name.includes('.tmp-'))).toEqual([]);
    },
    scaled(300_000),
  );
});
