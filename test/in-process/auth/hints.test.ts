// Every `platform auth login ...` a message suggests is run exactly as printed, on a new
// config against the sandbox, and must work: after it, the command that failed succeeds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser, type CliResult } from '../../helpers/cli.js';
import { httpBrowser, startCli, suggestedLogin } from '../../helpers/auth.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

/** Runs a command as a user in a shell would (no terminal, no secret in the environment); a browser clicks Allow. */
function run(user: TestUser, args: string[]): Promise<CliResult> {
  return startCli(user, args, { openUrl: httpBrowser('allow').openUrl }).done;
}

/** Runs the login `message` suggests, verbatim, and expects it to work. */
async function runSuggested(user: TestUser, message: string): Promise<string[]> {
  const login = suggestedLogin(message);
  const result = await run(user, login);
  expect(result.code, `platform ${login.join(' ')}\n${result.stderr}`).toBe(0);
  return login;
}

/** A user signed in to profile `rider` with the browser, the way an older README had it (client id and secret given). */
async function riderSignedIn(scopes: string): Promise<TestUser> {
  const user = new TestUser(sandbox);
  const login = await startCli(user, ['auth', 'login', '--profile', 'rider', '--client-id', 'sandbox-demo-client', '--scopes', scopes], {
    openUrl: httpBrowser('allow').openUrl,
    env: { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET },
  }).done;
  expect(login.code, login.stderr).toBe(0);
  return user;
}

describe('the commands hints suggest work verbatim', () => {
  it('logout of local after a browser sign-in: local goes back to the sandbox credentials, and the command logout names works', async () => {
    const user = new TestUser(sandbox);
    expect((await run(user, ['auth', 'login'])).code).toBe(0);
    expect(user.readConfig().profiles.local).toMatchObject({ grant: 'authorization_code' });

    const logout = await run(user, ['auth', 'logout']);
    expect(logout.code).toBe(0);
    expect(logout.stderr).toContain('`platform auth login --client-credentials --profile local`');
    // The next command works at once, with the built-in client credentials (it said "not signed in" before).
    const list = await run(user, ['ads', 'accounts', 'list']);
    expect(list.code, list.stderr).toBe(0);
    expect(user.readConfig().profiles.local).toMatchObject({ token: { grant: 'client_credentials' } });
    expect(await runSuggested(user, logout.stderr)).toEqual(['auth', 'login', '--client-credentials', '--profile', 'local']);
  });

  it('a profile that does not exist yet: the command that creates it works against the sandbox', async () => {
    const user = new TestUser(sandbox);
    const failed = await run(user, ['ads', 'accounts', 'list', '--profile', 'fresh']);
    // A profile that does not exist is a usage error (a typo), naming the profiles there are.
    expect(failed.code).toBe(2);
    expect(failed.stderr).toMatch(/^no profile named fresh; the profiles are local; run `.*` to create it\n$/);
    await runSuggested(user, failed.stderr);
    expect((await run(user, ['ads', 'accounts', 'list', '--profile', 'fresh'])).code).toBe(0);
  });

  it('a user profile after logout: "not signed in" names the login, which works without a client id or secret', async () => {
    const user = await riderSignedIn('profile request');
    const logout = await run(user, ['auth', 'logout', '--profile', 'rider']);
    expect(logout.code).toBe(0);
    const failed = await run(user, ['rider', 'history', '--profile', 'rider']);
    expect(failed.code).toBe(4);
    expect(failed.stderr).toContain('not signed in');
    // Both messages name the same command.
    expect(suggestedLogin(logout.stderr)).toEqual(suggestedLogin(failed.stderr));
    await runSuggested(user, failed.stderr);
    const history = await run(user, ['rider', 'history', '--profile', 'rider']);
    expect(history.code, history.stderr).toBe(0);
    // The sign-in again asked for what the first one did.
    expect(user.readConfig().profiles.rider).toMatchObject({ token: { scope: 'profile request' } });
  });

  it('a missing scope: the login named asks for the scopes held and the one lacking', async () => {
    const user = await riderSignedIn('profile');
    const failed = await run(user, ['rider', 'history', '--profile', 'rider']);
    expect(failed.code).toBe(4);
    await runSuggested(user, failed.stderr);
    const history = await run(user, ['rider', 'history', '--profile', 'rider']);
    expect(history.code, history.stderr).toBe(0);
  });
});
