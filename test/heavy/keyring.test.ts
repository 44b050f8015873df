// Secrets in a real OS keyring (gnome-keyring's Secret Service on a private D-Bus session):
// login, use, refresh, logout, migration and `auth token`, with the config file and the
// --debug output searched for every secret after each flow. Then the same without a
// keyring: auto falls back to the 0600 file with one warning, require refuses (exit 4),
// and a bus that never answers counts as no keyring after the 3 s timeout.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser, type CliResult } from '../helpers/cli.js';
import { mutedBus, secretServicePresent, secretServiceSkipNote, startSecretService, type SecretService } from '../helpers/secret-service.js';
import { httpBrowser, startCli } from '../helpers/auth.js';
import { scaled } from '../helpers/time-scale.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

type StoredProfile = {
  secrets?: string;
  keyring_secrets?: string[];
  client_secret?: string;
  token?: { access_token?: string; refresh_token?: string; expires_at: number; grant: string };
};
const profileOf = (user: TestUser, name: string) => (user.readConfig() as unknown as { profiles: Record<string, StoredProfile> }).profiles[name]!;

/** No secret in the config file, nor in what the command printed (stdout, stderr with --debug). */
function expectNowhere(user: TestUser, secrets: string[], results: CliResult[] = []): void {
  expect(secrets.length).toBeGreaterThan(0);
  const file = fs.readFileSync(user.configPath, 'utf8');
  for (const secret of secrets) {
    expect(file, 'the config file').not.toContain(secret);
    for (const result of results) expect(result.stdout + result.stderr, 'the output').not.toContain(secret);
  }
}

describe.skipIf(!secretServicePresent)(`with a Secret Service${secretServiceSkipNote}`, () => {
  let keyring: SecretService;
  beforeAll(async () => {
    keyring = await startSecretService();
  }, scaled(30_000));
  afterAll(() => keyring?.stop());

  const keyringUser = () => new TestUser(sandbox, { ...keyring.env, PLATFORM_CLIENT_SECRET: undefined });

  it('client credentials: the secret and the token go to the keyring, the file keeps a reference; calls, status and auth token use it', async () => {
    const user = keyringUser();
    const login = await user.run(['auth', 'login', '--client-credentials', '--profile', 'svc', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--debug'], {
      env: { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET },
    });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toMatch(/Warning/);
    const stored = profileOf(user, 'svc');
    expect(stored).toMatchObject({ secrets: 'keyring', keyring_secrets: ['client_secret', 'access_token', 'refresh_token'] });
    expect(stored.client_secret).toBeUndefined();
    expect(stored.token!.access_token).toBeUndefined();
    const access = keyring.lookup(user.configDir, 'svc', 'access_token')!;
    expect(access).toMatch(/\S{16,}/);
    expect(keyring.lookup(user.configDir, 'svc', 'client_secret')).toBe(SANDBOX_DEMO_CLIENT_SECRET);

    const list = await user.run(['ads', 'accounts', 'list', '--profile', 'svc', '--debug']);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr).toMatch(/^> GET \S+\/v1\/ads\/ad-accounts/m); // the trace the secrets are searched in
    const status = await user.json<Array<{ profile: string; secrets: string; source: string }>>(['auth', 'status']);
    expect(status.find((p) => p.profile === 'svc')).toMatchObject({ secrets: 'keyring', source: 'config' });
    const token = await user.run(['auth', 'token', '--profile', 'svc']);
    expect(token.stdout.trim()).toBe(access);
    expectNowhere(user, [access, SANDBOX_DEMO_CLIENT_SECRET], [login, list]);

    // A login refused for a wrong secret leaves the profile as it was: its secret and token in the keyring.
    const wrong = 'not-the-secret-of-this-app';
    const refused = await user.run(['auth', 'login', '--client-credentials', '--profile', 'svc', '--client-id', SANDBOX_DEMO_CLIENT_ID], {
      env: { PLATFORM_CLIENT_SECRET: wrong },
    });
    expect(refused.code, refused.stderr).toBe(4);
    expect(profileOf(user, 'svc')).toEqual(stored);
    expect(keyring.lookup(user.configDir, 'svc', 'client_secret')).toBe(SANDBOX_DEMO_CLIENT_SECRET);
    expect(keyring.lookup(user.configDir, 'svc', 'access_token')).toBe(access);
  });

  it('browser sign-in: refresh under the lock writes the new tokens to the keyring; logout removes them from it', async () => {
    const user = keyringUser();
    const login = await startCli(user, ['auth', 'login', '--profile', 'work', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--base-url', sandbox.url, '--debug'], {
      openUrl: httpBrowser().openUrl,
      env: { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET },
    }).done;
    expect(login.code, login.stderr).toBe(0);
    expect(profileOf(user, 'work')).toMatchObject({ secrets: 'keyring', keyring_secrets: ['client_secret', 'access_token', 'refresh_token'] });
    const first = { access: keyring.lookup(user.configDir, 'work', 'access_token')!, refresh: keyring.lookup(user.configDir, 'work', 'refresh_token')! };
    expect(first.refresh).toBeTruthy();

    // Expired by the file's metadata: the next call refreshes.
    const config = user.readConfig() as unknown as { profiles: Record<string, StoredProfile> };
    config.profiles.work!.token!.expires_at = Date.now() - 1000;
    user.writeConfig(config);
    sandbox.resetStats();
    const list = await user.run(['ads', 'accounts', 'list', '--profile', 'work', '--debug']);
    expect(list.code, list.stderr).toBe(0);
    expect(sandbox.stats.tokenRequests).toBe(1);
    const second = { access: keyring.lookup(user.configDir, 'work', 'access_token')!, refresh: keyring.lookup(user.configDir, 'work', 'refresh_token')! };
    expect(second.access).not.toBe(first.access);
    expect(second.refresh).not.toBe(first.refresh);
    expect(profileOf(user, 'work').token!.expires_at).toBeGreaterThan(Date.now());
    expectNowhere(user, [first.access, first.refresh, second.access, second.refresh, SANDBOX_DEMO_CLIENT_SECRET], [login, list]);

    const logout = await user.run(['auth', 'logout', '--profile', 'work']);
    expect(logout.code, logout.stderr).toBe(0);
    expect(keyring.all(user.configDir)).toEqual([]);
    expect(profileOf(user, 'work').keyring_secrets).toBeUndefined();
  });

  it('auth migrate moves file secrets into the keyring, read back before they leave the file; --secure-storage file moves them back', async () => {
    const user = keyringUser();
    const login = await user.run(
      ['auth', 'login', '--client-credentials', '--profile', 'old', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--secure-storage', 'file'],
      {
        env: { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET },
      },
    );
    expect(login.code, login.stderr).toBe(0);
    const before = profileOf(user, 'old');
    expect(before).toMatchObject({ secrets: 'file', client_secret: SANDBOX_DEMO_CLIENT_SECRET });
    const access = before.token!.access_token!;
    expect(keyring.all(user.configDir)).toEqual([]);

    const migrate = await user.run(['auth', 'migrate', '--debug']);
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stderr).toMatch(/Profile old: its secrets moved to the OS keyring/);
    expect(keyring.lookup(user.configDir, 'old', 'access_token')).toBe(access);
    expect(keyring.lookup(user.configDir, 'old', 'client_secret')).toBe(SANDBOX_DEMO_CLIENT_SECRET);
    expectNowhere(user, [access, SANDBOX_DEMO_CLIENT_SECRET], [migrate]);
    sandbox.resetStats();
    expect((await user.run(['ads', 'accounts', 'list', '--profile', 'old'])).code).toBe(0);
    expect(sandbox.stats.tokenRequests).toBe(0); // the same token, now from the keyring

    const back = await user.run(['auth', 'migrate', '--secure-storage', 'file']);
    expect(back.code, back.stderr).toBe(0);
    expect(profileOf(user, 'old')).toMatchObject({ secrets: 'file', client_secret: SANDBOX_DEMO_CLIENT_SECRET, token: { access_token: access } });
    expect(keyring.all(user.configDir)).toEqual([]);
  });

  it('a profile kept in the keyring, asked for while no keyring answers: exit 4 naming why, nothing lost', async () => {
    const user = keyringUser();
    expect(
      (await user.run(['auth', 'login', '--client-credentials', '--profile', 'k'], { env: { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET } })).code,
    ).toBe(0);
    const result = await user.run(['ads', 'accounts', 'list', '--profile', 'k'], { env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/the secrets of profile k are in the OS keyring, which did not answer: no D-Bus session bus at \/nonexistent\/bus/);
    // PLATFORM_TOKEN needs nothing stored: the keyring is not asked.
    const token = keyring.lookup(user.configDir, 'k', 'access_token')!;
    const withToken = await user.run(['ads', 'accounts', 'list', '--profile', 'k'], {
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', PLATFORM_TOKEN: token },
    });
    expect(withToken.code, withToken.stderr).toBe(0);
    expect((await user.run(['ads', 'accounts', 'list', '--profile', 'k'])).code).toBe(0);
  });
});

describe('without a keyring', () => {
  const noBus = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus', PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET };

  it('auto keeps the secrets in the 0600 file and says so in one warning line naming the reason', async () => {
    const user = new TestUser(sandbox, noBus);
    const login = await user.run(['auth', 'login', '--client-credentials', '--profile', 'ci', '--client-id', SANDBOX_DEMO_CLIENT_ID]);
    expect(login.code, login.stderr).toBe(0);
    const warnings = login.stderr.split('\n').filter((line) => line.includes('Warning'));
    expect(warnings).toEqual([
      `Warning: no OS keyring answered (no D-Bus session bus at /nonexistent/bus), so the secrets of profile ci are kept in ${user.configPath} (mode 0600); --secure-storage require refuses that, --secure-storage file skips the keyring.`,
    ]);
    expect(profileOf(user, 'ci')).toMatchObject({ secrets: 'file', client_secret: SANDBOX_DEMO_CLIENT_SECRET });
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);
    const status = await user.json<Array<{ profile: string; secrets: string }>>(['auth', 'status']);
    expect(status.find((p) => p.profile === 'ci')!.secrets).toBe('file');
  });

  it('require refuses to store in a file: exit 4, why and what to install or set, nothing stored', async () => {
    const user = new TestUser(sandbox, noBus);
    for (const how of [['--secure-storage', 'require'], []]) {
      const login = await user.run(['auth', 'login', '--client-credentials', '--profile', 'strict', '--client-id', SANDBOX_DEMO_CLIENT_ID, ...how], {
        env: how.length ? {} : { PLATFORM_SECURE_STORAGE: 'require' },
      });
      expect(login.code).toBe(4);
      expect(login.stderr).toMatch(
        /no OS keyring answered \(no D-Bus session bus at \/nonexistent\/bus\), and --secure-storage require refuses to keep the secrets of profile strict in a file: start and unlock a Secret Service \(gnome-keyring, KeePassXC\)/,
      );
      expect(fs.existsSync(user.configPath) ? JSON.stringify(user.readConfig()) : '').not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
    }
  });

  it('file never asks the keyring and says nothing about it', async () => {
    const user = new TestUser(sandbox, noBus);
    const login = await user.run([
      'auth',
      'login',
      '--client-credentials',
      '--profile',
      'plain',
      '--client-id',
      SANDBOX_DEMO_CLIENT_ID,
      '--secure-storage',
      'file',
    ]);
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toMatch(/keyring/i);
    expect(profileOf(user, 'plain')).toMatchObject({ secrets: 'file' });
  });

  it('a PLATFORM_SECURE_STORAGE that is not a choice is exit 2 naming it', async () => {
    const user = new TestUser(sandbox, { ...noBus, PLATFORM_SECURE_STORAGE: 'vault' });
    const login = await user.run(['auth', 'login', '--client-credentials']);
    expect(login.code).toBe(2);
    expect(login.stderr).toMatch(/PLATFORM_SECURE_STORAGE must be one of auto, require, file, not "vault"/);
  });

  it(
    'a bus that never answers counts as no keyring after the 3 s timeout',
    async () => {
      const bus = await mutedBus();
      try {
        const user = new TestUser(sandbox, { ...noBus, DBUS_SESSION_BUS_ADDRESS: bus.address });
        const login = await user.run(['auth', 'login', '--client-credentials', '--profile', 'hung', '--client-id', SANDBOX_DEMO_CLIENT_ID]);
        expect(login.code, login.stderr).toBe(0);
        expect(login.stderr).toMatch(/Warning: no OS keyring answered \(it did not answer within 3 s/);
        expect(profileOf(user, 'hung')).toMatchObject({ secrets: 'file' });
      } finally {
        await bus.close();
      }
    },
    scaled(20_000),
  );
});
