// `platform auth login --with-token`: a token read from stdin (never argv), checked with the
// server once, stored for the profile (the 0600 file or the OS keyring), used until the
// server refuses it, and then the advice is this same login. The token is searched for in
// every output, --debug traces included.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser, type CliResult } from '../helpers/cli.js';
import { secretServicePresent, secretServiceSkipNote, startSecretService, type SecretService } from '../helpers/secret-service.js';
import { runOnPty } from '../helpers/pty.js';
import { signedInUser } from '../helpers/rider.js';
import { scaled } from '../helpers/time-scale.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

type StoredProfile = {
  grant?: string;
  secrets?: string;
  keyring_secrets?: string[];
  user?: { rider_id: string };
  token?: { access_token?: string; refresh_token?: string; grant: string };
};
const profileOf = (user: TestUser, name: string) => (user.readConfig() as unknown as { profiles: Record<string, StoredProfile | undefined> }).profiles[name];

/** A token the sandbox issued (client credentials of its demo app, or a browser sign-in's). */
async function issuedToken(giver: TestUser, profile?: string): Promise<string> {
  const printed = await giver.run(['auth', 'token', ...(profile ? ['--profile', profile] : [])]);
  expect(printed.code, printed.stderr).toBe(0);
  return printed.stdout.trim();
}

function expectNotIn(results: CliResult[], secret: string): void {
  for (const result of results) expect(result.stdout + result.stderr, 'the output').not.toContain(secret);
}

const fileUser = () => new TestUser(sandbox, { PLATFORM_SECURE_STORAGE: 'file' });

describe('auth login --with-token', () => {
  it('checks a piped token with the server, stores it for the profile, and every command uses it; it shows nowhere, --debug included', async () => {
    const token = await issuedToken(new TestUser(sandbox));
    const user = fileUser();
    const login = await user.run(['auth', 'login', '--with-token', '--profile', 'ci', '--debug'], { stdin: `${token}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/^> GET \S+\/v1\/ads\/ad-accounts/m); // the one check, traced
    expect(login.stderr).toContain('Stored the token for profile ci');
    expect(login.stderr).toContain('the server accepted it (GET /v1/ads/ad-accounts: 200); it acts for no user');
    expect(login.stderr).toContain('run `platform auth login --with-token --profile ci` with a new one');
    expect(profileOf(user, 'ci')).toMatchObject({ grant: 'token', token: { access_token: token, grant: 'token' } });
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);

    const list = await user.run(['ads', 'accounts', 'list', '--profile', 'ci', '--debug']);
    expect(list.code, list.stderr).toBe(0);
    const status = await user.json<Array<{ profile: string; grant: string; expires_at: string | null; secrets: string }>>(['auth', 'status']);
    expect(status.find((p) => p.profile === 'ci')).toMatchObject({ grant: 'token', expires_at: null, secrets: 'file' });
    const printed = await user.run(['auth', 'token', '--profile', 'ci']);
    expect(printed.stdout.trim()).toBe(token);
    expectNotIn([login, list], token);
  });

  it("says whose a user's token is (GET /v1.2/me)", async () => {
    const rider = await signedInUser(sandbox);
    const token = await issuedToken(rider);
    const user = fileUser();
    const login = await user.run(['auth', 'login', '--with-token', '--profile', 'me'], { stdin: token });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toMatch(/it acts for \S+/);
    expect(login.stderr).not.toContain('no user');
    expect(profileOf(user, 'me')?.user?.rider_id).toBeTruthy();
  });

  it('no token on stdin, or not one token, is a usage error (exit 2) that stores nothing and never echoes the input', async () => {
    const user = fileUser();
    for (const stdin of [undefined, '', ' \n\n\t\n']) {
      const empty = await user.run(['auth', 'login', '--with-token', '--profile', 'ci'], { stdin });
      expect(empty.code).toBe(2);
      expect(empty.stderr).toMatch(/^--with-token read no token from stdin: pipe the token in, e\.g\. `platform auth login --with-token < token\.txt`/);
    }
    const twoLines = await user.run(['auth', 'login', '--with-token'], { stdin: 'first-secret-line\nsecond-secret-line\n' });
    expect(twoLines.code).toBe(2);
    expect(twoLines.stderr).toMatch(/stdin must hold one access token on one line/);
    expectNotIn([twoLines], 'secret-line');
    const withGrant = await user.run(['auth', 'login', '--with-token', '--client-credentials'], { stdin: 'abc' });
    expect(withGrant.code).toBe(2);
    expect(withGrant.stderr).toMatch(/^--with-token cannot be used with --client-credentials/);
    expect(fs.existsSync(user.configPath)).toBe(false);
    expect(sandbox.stats.requests.some((r) => /first-secret-line|abc/.test(JSON.stringify(r)))).toBe(false);
  });

  it('a token the server refuses is not stored: exit 4, and the profile keeps the token it had', async () => {
    const good = await issuedToken(new TestUser(sandbox));
    const user = fileUser();
    expect((await user.run(['auth', 'login', '--with-token', '--profile', 'ci'], { stdin: good })).code).toBe(0);
    const refused = await user.run(['auth', 'login', '--with-token', '--profile', 'ci', '--debug'], { stdin: 'no-such-token-anywhere' });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toMatch(/the server refused the token read from stdin; the token was not stored, and profile ci keeps what it had/);
    expectNotIn([refused], 'no-such-token-anywhere');
    expect(profileOf(user, 'ci')?.token?.access_token).toBe(good);
  });

  it('a token the server refuses for a new profile leaves no profile behind: exit 4, one line saying so', async () => {
    const user = fileUser();
    const refused = await user.run(['auth', 'login', '--with-token', '--profile', 'fresh'], { stdin: 'no-such-token-anywhere' });
    expect(refused.code).toBe(4);
    expect(refused.stderr).toBe('the server refused the token read from stdin; the token was not stored, and profile fresh was not created\n');
    expect(profileOf(user, 'fresh')).toBeUndefined();
    expect(fs.readFileSync(user.configPath, 'utf8')).not.toContain('no-such-token-anywhere');
    const status = await user.json<Array<{ profile: string }>>(['auth', 'status']);
    expect(status.map((p) => p.profile)).not.toContain('fresh');
  });
});

describe('auth login --with-token on a terminal (the built CLI on a pseudo-terminal, 80 columns)', { timeout: scaled(40_000) }, () => {
  const envOf = (user: TestUser): Record<string, string> => ({
    PATH: process.env.PATH ?? '',
    HOME: user.configDir,
    PLATFORM_CONFIG_DIR: user.configDir,
    PLATFORM_BASE_URL: sandbox.url,
    PLATFORM_SECURE_STORAGE: 'file',
    NO_COLOR: '1',
  });

  it('asks at a hidden prompt: Enter with nothing typed is a usage error (exit 2); a typed token is stored and never shown', async () => {
    const user = fileUser();
    const empty = runOnPty(['auth', 'login', '--with-token', '--profile', 'ci'], envOf(user), { columns: 80 });
    await empty.waitFor(/Access token/);
    empty.type('\r');
    const nothing = await empty.done;
    expect(nothing.code, nothing.output).toBe(2);
    expect(nothing.output).toContain('--with-token read no token from stdin');
    expect(fs.existsSync(user.configPath)).toBe(false);

    const token = await issuedToken(new TestUser(sandbox));
    const typed = runOnPty(['auth', 'login', '--with-token', '--profile', 'ci'], envOf(user), { columns: 80 });
    await typed.waitFor(/Access token/);
    typed.type(`${token}\r`);
    const stored = await typed.done;
    expect(stored.code, stored.output).toBe(0);
    expect(stored.output).toContain('Stored the token for profile ci');
    expect(stored.output).not.toContain(token);
    expect(profileOf(user, 'ci')?.token?.access_token).toBe(token);
  });
});

describe('a token given with --with-token, refused later', () => {
  let own: Sandbox;
  beforeAll(async () => {
    own = await sandboxOnFreePort();
  });
  afterAll(() => own.close());

  it('is not renewed: the message names auth login --with-token, as does auth status --check', async () => {
    const token = await issuedToken(new TestUser(own));
    const user = new TestUser(own, { PLATFORM_SECURE_STORAGE: 'file' });
    expect((await user.run(['auth', 'login', '--with-token', '--profile', 'ci'], { stdin: token })).code).toBe(0);
    own.revokeTokens();
    const tokenRequests = own.stats.requests.filter((r) => r.path.includes('/oauth/')).length;
    const list = await user.run(['ads', 'accounts', 'list', '--profile', 'ci']);
    expect(list.code).toBe(4);
    expect(list.stderr).toBe(
      'the token of profile ci was refused, and a token given with --with-token cannot be renewed; run `platform auth login --with-token --profile ci` to sign in again\n',
    );
    expect(own.stats.requests.filter((r) => r.path.includes('/oauth/')).length).toBe(tokenRequests); // no renewal asked for
    const checked = await user.run(['auth', 'status', '--check', '--profile', 'ci', '--json']);
    expect(checked.code).toBe(4);
    expect(JSON.parse(checked.stdout).find((p: { profile: string }) => p.profile === 'ci')).toMatchObject({
      check: 'refused',
      fix: 'platform auth login --with-token --profile ci',
    });
  });
});

describe.skipIf(!secretServicePresent)(`with a Secret Service${secretServiceSkipNote}`, () => {
  let keyring: SecretService;
  beforeAll(async () => {
    keyring = await startSecretService();
  }, scaled(30_000));
  afterAll(() => keyring?.stop());

  it('the token goes to the keyring, the file keeps only its name; the refresh token of the sign-in it replaces leaves the keyring', async () => {
    const user = new TestUser(sandbox, { ...keyring.env, PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
    const before = await user.run(['auth', 'login', '--client-credentials', '--profile', 'svc', '--client-id', SANDBOX_DEMO_CLIENT_ID]);
    expect(before.code, before.stderr).toBe(0);
    expect(keyring.lookup(user.configDir, 'svc', 'refresh_token')).toBeTruthy();

    const token = await issuedToken(new TestUser(sandbox));
    const login = await user.run(['auth', 'login', '--with-token', '--profile', 'svc', '--debug'], { stdin: `${token}\n` });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).not.toMatch(/Warning/);
    expect(profileOf(user, 'svc')).toMatchObject({ secrets: 'keyring', grant: 'token', keyring_secrets: ['client_secret', 'access_token'] });
    expect(profileOf(user, 'svc')?.token?.access_token).toBeUndefined();
    expect(keyring.lookup(user.configDir, 'svc', 'access_token')).toBe(token);
    expect(keyring.lookup(user.configDir, 'svc', 'refresh_token')).toBeUndefined();
    expect(fs.readFileSync(user.configPath, 'utf8')).not.toContain(token);

    const list = await user.run(['ads', 'accounts', 'list', '--profile', 'svc', '--debug']);
    expect(list.code, list.stderr).toBe(0);
    expect((await user.run(['auth', 'token', '--profile', 'svc'])).stdout.trim()).toBe(token);
    expectNotIn([login, list], token);
  });

  it('a failed login of a new keyring profile leaves neither the profile nor its secret in the keyring', async () => {
    const user = new TestUser(sandbox, keyring.env);
    const wrong = 'not-the-secret-of-this-app';
    const refused = await user.run(['auth', 'login', '--client-credentials', '--profile', 'svc', '--client-id', SANDBOX_DEMO_CLIENT_ID], {
      env: { PLATFORM_CLIENT_SECRET: wrong },
    });
    expect(refused.code).toBe(4);
    expect(profileOf(user, 'svc')).toBeUndefined();
    expect(keyring.all(user.configDir)).toEqual([]);
    const token = await user.run(['auth', 'login', '--with-token', '--profile', 'ci'], { stdin: 'no-such-token-anywhere' });
    expect(token.code).toBe(4);
    expect(profileOf(user, 'ci')).toBeUndefined();
    expect(keyring.all(user.configDir)).toEqual([]);
  });

  it('--secure-storage file keeps it in the 0600 file and never asks the keyring', async () => {
    const user = new TestUser(sandbox, keyring.env);
    const token = await issuedToken(new TestUser(sandbox));
    const login = await user.run(['auth', 'login', '--with-token', '--profile', 'plain', '--secure-storage', 'file'], { stdin: token });
    expect(login.code, login.stderr).toBe(0);
    expect(profileOf(user, 'plain')).toMatchObject({ secrets: 'file', token: { access_token: token } });
    expect(keyring.all(user.configDir)).toEqual([]);
  });
});
