// `platform auth status --check` asks the server about each token: a sandbox restarted since
// the sign-in (every token and refresh token forgotten) is found out, and the fix it names works.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, TestUser, type CliResult } from '../../helpers/cli.js';
import { httpBrowser, portOf, startCli, suggestedLogin } from '../../helpers/auth.js';

interface Row {
  profile: string;
  check: string | null;
  check_detail: string;
  fix: string;
  scopes: string[];
}

let before: Sandbox;
let after: Sandbox;
beforeAll(async () => {
  [before, after] = await Promise.all([sandboxOnFreePort(), sandboxOnFreePort()]);
});
afterAll(() => Promise.all([before.close(), after.close()]));

/** The environment that points every sandbox profile (not only the one in use) at `sandbox`. */
const at = (sandbox: Sandbox) => ({ PLATFORM_BASE_URL: sandbox.url, PLATFORM_SANDBOX_PORT: portOf(sandbox) });

function run(user: TestUser, args: string[], sandbox: Sandbox): Promise<CliResult> {
  return startCli(user, args, { env: at(sandbox), openUrl: httpBrowser('allow').openUrl }).done;
}

async function check(user: TestUser, sandbox: Sandbox, args: string[] = []): Promise<{ result: CliResult; rows: Map<string, Row> }> {
  const result = await run(user, ['auth', 'status', '--check', '--json', ...args], sandbox);
  const rows = new Map((JSON.parse(result.stdout) as Row[]).map((row) => [row.profile, row]));
  return { result, rows };
}

/** A new config with local used for ads and a rider signed in with the browser, on `before`. */
async function userOfBefore(): Promise<TestUser> {
  const user = new TestUser(before);
  expect((await run(user, ['ads', 'accounts', 'list'], before)).code).toBe(0);
  const login = await run(user, ['auth', 'login', '--profile', 'rider', '--scopes', 'profile request'], before);
  expect(login.code, login.stderr).toBe(0);
  return user;
}

describe('platform auth status --check', () => {
  it('without --check, says it did not ask the server and how to', async () => {
    const user = new TestUser(before);
    const result = await user.run(['auth', 'status']);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('Not checked with the server');
    expect(result.stderr).toContain('`platform auth status --check`');
  });

  it('valid tokens: every profile is asked about with a call its scopes allow; exit 0', async () => {
    const user = await userOfBefore();
    const { result, rows } = await check(user, before);
    expect(result.code, result.stderr).toBe(0);
    expect(rows.get('local')).toMatchObject({ check: 'valid', check_detail: 'GET /v1/ads/ad-accounts: 200', fix: '' });
    expect(rows.get('rider')).toMatchObject({ check: 'valid', check_detail: 'GET /v1.2/me: 200', scopes: ['profile', 'request'] });
    expect(result.stderr).toMatch(/Profile rider: valid, scopes profile request/);
  });

  it('after a sandbox restart: the user sign-in is refused (exit 4) and its fix works verbatim; local gets a new token', async () => {
    const user = await userOfBefore();
    // Offline, status still shows both signed in: that is what --check is for.
    const offline = await run(user, ['auth', 'status', '--json'], after);
    expect((JSON.parse(offline.stdout) as Array<{ expires_at: string | null }>).every((row) => row.expires_at)).toBe(true);

    const { result, rows } = await check(user, after);
    expect(result.code).toBe(4);
    expect(rows.get('local')).toMatchObject({ check: 'valid' });
    expect(rows.get('rider')).toMatchObject({ check: 'refused', fix: 'platform auth login --profile rider' });
    expect(rows.get('rider')!.check_detail).toMatch(/invalid_grant/);
    expect(result.stderr).toMatch(/^Profile rider: refused \(.*invalid_grant.*\)\. Run `platform auth login --profile rider`\.$/m);

    await expect(run(user, suggestedLogin(result.stderr), after)).resolves.toMatchObject({ code: 0 });
    const again = await check(user, after);
    expect(again.result.code, again.result.stderr).toBe(0);
    expect(again.rows.get('rider')).toMatchObject({ check: 'valid', scopes: ['profile', 'request'] });
  });

  it('--profile checks that profile only; an expired token that cannot be renewed is "expired"', async () => {
    const user = await userOfBefore();
    const config = user.readConfig();
    config.profiles.rider!.token!.expires_at = Date.now() - 1000;
    user.writeConfig(config);
    const { result, rows } = await check(user, after, ['--profile', 'rider']);
    expect(result.code).toBe(4);
    expect(rows.get('rider')).toMatchObject({ check: 'expired', fix: 'platform auth login --profile rider' });
    expect(rows.get('local')).toMatchObject({ check: null });
  });

  it('a server that does not answer: "unreachable", exit 1, no login suggested', async () => {
    const user = new TestUser(before);
    const result = await user.run(['auth', 'status', '--check', '--json', '--profile', 'local'], { env: { PLATFORM_BASE_URL: 'http://127.0.0.1:9' } });
    expect(result.code).toBe(1);
    const local = (JSON.parse(result.stdout) as Row[]).find((row) => row.profile === 'local');
    expect(local).toMatchObject({ check: 'unreachable', fix: '' });
  });
});
