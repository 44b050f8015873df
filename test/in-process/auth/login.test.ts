import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser, type CliResult } from '../../helpers/cli.js';
import { AUTHORIZE_URL, httpBrowser, startCli, visitAuthorize, type Visit } from '../../helpers/auth.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

interface StoredConfig {
  default_profile?: string;
  profiles: Record<
    string,
    {
      grant?: string;
      user?: { name?: string; email?: string };
      token?: { access_token: string; refresh_token?: string; scope: string; grant: string; expires_at: number };
    }
  >;
}

const config = (user: TestUser) => user.readConfig() as unknown as StoredConfig;

/** Nothing secret in what the command printed. */
function expectNoSecrets(result: CliResult, secrets: Array<string | undefined>): void {
  for (const secret of secrets.filter(Boolean)) {
    expect(result.stdout).not.toContain(secret);
    expect(result.stderr).not.toContain(secret);
  }
  expect(result.stderr + result.stdout).not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
}

describe('platform auth login (browser)', () => {
  it('prints the URL first, opens it, and ends signed in with the tokens stored', async () => {
    const user = new TestUser(sandbox);
    let visit!: Promise<Visit>;
    const run = startCli(user, ['auth', 'login'], { openUrl: async (url) => void (visit = visitAuthorize(url, 'allow')) });
    const result = await run.done;
    const { redirect, callback } = await visit;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    const lines = result.stderr.split('\n');
    expect(lines[0]).toBe('Open this URL in a browser to sign in:');
    const url = new URL(lines[1]!.trim());
    expect(url.pathname).toBe('/oauth/v2/universal/authorize');
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{22,}$/);
    expect(url.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    expect(url.searchParams.get('scope')).toBe('profile request ads.ad-accounts.read ads.campaigns.read ads.campaigns.write ads.reporting ads.products.read');
    expect(result.stderr).toMatch(/✓ Signed in to profile local \(http:\/\/127\.0\.0\.1:\d+\) as Dana Demo \(dana\.demo@example\.com\)\./);
    expect(result.stderr).toMatch(
      /Scopes: profile request ads\.ad-accounts\.read ads\.campaigns\.read ads\.campaigns\.write ads\.reporting ads\.products\.read\./,
    );
    expect(callback).toMatchObject({ status: 200, html: expect.stringMatching(/signed in as Dana Demo[\s\S]*You can close this tab/) });

    const stored = config(user);
    const token = stored.profiles.local!.token!;
    expect(token).toMatchObject({
      grant: 'authorization_code',
      scope: 'profile request ads.ad-accounts.read ads.campaigns.read ads.campaigns.write ads.reporting ads.products.read',
    });
    expect(token.refresh_token).toBeTruthy();
    expect(token.expires_at).toBeGreaterThan(Date.now() + 29 * 24 * 3600 * 1000);
    expect(stored.profiles.local!.user).toMatchObject({ name: 'Dana Demo', email: 'dana.demo@example.com' });
    expectNoSecrets(result, [token.access_token, token.refresh_token, redirect.searchParams.get('code')!]);
    expect(fs.statSync(user.configPath).mode & 0o777).toBe(0o600);
    expect(fs.statSync(user.configDir).mode & 0o777).toBe(0o700);

    // The stored sign-in works for the next command, and `auth status` tells who and how.
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    const status = await user.json<Array<Record<string, unknown>>>(['auth', 'status']);
    expect(status.find((p) => p.profile === 'local')).toMatchObject({
      user: 'Dana Demo (dana.demo@example.com)',
      grant: 'authorization_code',
      source: 'config',
      renewable: true,
    });
    const table = await user.run(['auth', 'status'], { tty: true });
    expect(table.stdout).toMatch(/Dana Demo \(dana\.demo@example\.com\)\s+browser/);
    expectNoSecrets(table, [token.access_token, token.refresh_token]);
  });

  it('a second login with the same scopes is not asked again; --consent asks; --scopes and --login-hint choose', async () => {
    const user = new TestUser(sandbox);
    const args = [
      'auth',
      'login',
      '--profile',
      'rides',
      '--client-id',
      'sandbox-demo-client',
      '--scopes',
      'profile,profile.mobile_number',
      '--login-hint',
      'no-payment',
    ];
    const env = { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET };
    const first = httpBrowser();
    expect((await startCli(user, args, { openUrl: first.openUrl, env }).done).code).toBe(0);
    const pages: number[] = [];
    const again = await startCli(user, args, {
      env,
      openUrl: async (url) => {
        pages.push((await fetch(url, { redirect: 'manual' })).status);
        await visitAuthorize(url, 'allow');
      },
    }).done;
    expect(again.code).toBe(0);
    expect(pages).toEqual([302]);
    expect(again.stderr).toMatch(/as Noah Nopay \(noah\.nopay@example\.com\)/);
    expect(config(user).profiles.rides!.token!.scope).toBe('profile profile.mobile_number');
    expect(config(user).default_profile).toBe('rides');
    const forced = await startCli(user, [...args, '--consent'], {
      env,
      openUrl: async (url) => {
        pages.push((await fetch(url, { redirect: 'manual' })).status);
        await visitAuthorize(url, 'allow');
      },
    }).done;
    expect(forced.code).toBe(0);
    expect(pages).toEqual([302, 200]);
  });

  it('Deny ends with exit 1 and a clear message; nothing is stored', async () => {
    const user = new TestUser(sandbox);
    let visit!: Promise<Visit>;
    // --consent: the demo user allowed these scopes in an earlier test of this sandbox.
    const result = await startCli(user, ['auth', 'login', '--consent'], { openUrl: async (url) => void (visit = visitAuthorize(url, 'deny')) }).done;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /access was denied in the browser \(access_denied\); nothing was stored\. Run `platform auth login --profile local` to try again\./,
    );
    expect((await visit).callback).toMatchObject({ status: 200, html: expect.stringMatching(/You denied access/) });
    expect(config(user).profiles.local?.token).toBeUndefined();
  });

  it('rejects a callback whose state does not match, and keeps waiting for the right one', async () => {
    const user = new TestUser(sandbox);
    let forged!: { status: number; html: string };
    const result = await startCli(user, ['auth', 'login'], {
      openUrl: async (url) => {
        const redirectUri = new URL(url).searchParams.get('redirect_uri')!;
        const res = await fetch(`${redirectUri}?code=forged&state=not-the-state`);
        forged = { status: res.status, html: await res.text() };
        await visitAuthorize(url, 'allow');
      },
    }).done;
    expect(forged.status).toBe(400);
    expect(forged.html).toMatch(/state does not match/);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/Rejected a request to the sign-in listener: its state does not match this sign-in\. Still waiting\./);
    expect(config(user).profiles.local!.token!.grant).toBe('authorization_code');
  });

  it('gives up after --timeout with a message, stores nothing and closes the listener', async () => {
    const user = new TestUser(sandbox);
    let redirectUri = '';
    const result = await startCli(user, ['auth', 'login', '--timeout', '3s'], {
      openUrl: async (url) => {
        redirectUri = new URL(url).searchParams.get('redirect_uri')!;
        await new Promise(() => {}); // a browser that stays open and never signs in
      },
    }).done;
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      /no sign-in arrived within 3s; nothing was stored\. Run `platform auth login --profile local` to try again \(--timeout sets how long it waits\)\./,
    );
    expect(user.clock.slept).toContain(3000);
    expect(config(user).profiles.local?.token).toBeUndefined();
    await expect(fetch(redirectUri)).rejects.toThrow();
  });

  it('Ctrl-C while waiting stops at once: exit 130, nothing stored, the listener closed', async () => {
    const user = new TestUser(sandbox);
    const controller = new AbortController();
    let redirectUri = '';
    let opened!: () => void;
    const browserOpened = new Promise<void>((resolve) => (opened = resolve));
    const run = startCli(user, ['auth', 'login'], {
      signal: controller.signal,
      openUrl: async (url) => {
        redirectUri = new URL(url).searchParams.get('redirect_uri')!;
        opened();
        await new Promise(() => {}); // a browser that stays open and never signs in
      },
    });
    // Ctrl-C once the browser is open and the command waits for the sign-in.
    await browserOpened;
    controller.abort(new Error('interrupted'));
    const result = await run.done;
    expect(result.code).toBe(130);
    expect(config(user).profiles.local?.token).toBeUndefined();
    await expect(fetch(redirectUri)).rejects.toThrow();
  });

  it('--no-browser: prints the URL and takes the redirected address pasted on stdin', async () => {
    const user = new TestUser(sandbox);
    const opened: string[] = [];
    const run = startCli(user, ['auth', 'login', '--no-browser'], { openUrl: async (url) => void opened.push(url) });
    const [url] = await run.waitForStderr(AUTHORIZE_URL);
    await run.waitForStderr(/paste its whole address here/);
    // On "another machine": allow, but the redirect to 127.0.0.1 does not load there.
    const { redirect } = await visitAuthorize(url, 'allow', false);
    run.stdin.write('hello\n');
    await run.waitForStderr(/That is not the redirected address/);
    const other = new URL(redirect);
    other.searchParams.set('state', 'another-sign-in');
    run.stdin.write(`${other}\n`);
    await run.waitForStderr(/belongs to another sign-in/);
    run.stdin.write(`  ${redirect}  \n`);
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(opened).toEqual([]);
    expect(result.stderr).toMatch(/Signed in to profile local .* as Dana Demo/);
    const token = config(user).profiles.local!.token!;
    expectNoSecrets(result, [token.access_token, token.refresh_token, redirect.searchParams.get('code')!]);
    // The listener no longer answers: the sign-in is over.
    await expect(fetch(redirect)).rejects.toThrow();
  });

  it('falls back to the pasted address when the browser cannot be opened', async () => {
    const user = new TestUser(sandbox);
    const run = startCli(user, ['auth', 'login'], { openUrl: () => Promise.reject(new Error('this is an SSH session without a display')) });
    const [url] = await run.waitForStderr(AUTHORIZE_URL);
    await run.waitForStderr(/Could not open a browser here: this is an SSH session without a display\.[\s\S]*paste its whole address here/);
    const { redirect } = await visitAuthorize(url, 'allow', false);
    run.stdin.write(`${redirect}\n`);
    expect((await run.done).code).toBe(0);
    expect(config(user).profiles.local!.token!.grant).toBe('authorization_code');
  });

  it('--callback-port fixes the listener port; a taken port is a usage error', async () => {
    const user = new TestUser(sandbox);
    const blocker = await import('node:net').then(({ createServer }) => createServer());
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const taken = (blocker.address() as { port: number }).port;
    const busy = await startCli(user, ['auth', 'login', '--callback-port', String(taken)]).done;
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(new RegExp(`--callback-port ${taken}: the port is in use`));
    await new Promise((resolve) => blocker.close(resolve));
    const browser = httpBrowser();
    const result = await startCli(user, ['auth', 'login', '--callback-port', String(taken)], { openUrl: browser.openUrl }).done;
    expect(result.code).toBe(0);
    expect(new URL(browser.opened[0]!).searchParams.get('redirect_uri')).toBe(`http://127.0.0.1:${taken}/callback`);
  });

  it('--debug traces the exchange with the code, verifier, tokens and secret redacted', async () => {
    const user = new TestUser(sandbox);
    let visit!: Promise<Visit>;
    const result = await startCli(user, ['auth', 'login', '--debug'], { openUrl: async (url) => void (visit = visitAuthorize(url, 'allow')) }).done;
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/> POST .*\/oauth\/v2\/token/);
    expect(result.stderr).toMatch(/> GET .*\/v1\.2\/me/);
    expect(result.stderr).toMatch(/code=\[REDACTED\]/);
    expect(result.stderr).toMatch(/code_verifier=\[REDACTED\]/);
    const token = config(user).profiles.local!.token!;
    expectNoSecrets(result, [token.access_token, token.refresh_token, (await visit).redirect.searchParams.get('code')!]);
  });

  it('on a terminal, waits with a spinner on stderr', async () => {
    const user = new TestUser(sandbox);
    const result = await startCli(user, ['auth', 'login'], { tty: true, openUrl: httpBrowser().openUrl }).done;
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('');
    // A spinner frame before the text (a plain stream cannot be redrawn, so frames follow each other).
    expect(result.stderr).toMatch(/⠋ Waiting for you to sign in in the browser \(up to 5m\)/);
    expect(result.stderr).toMatch(/✓ Signed in to profile local/);
  });

  it('rejects a bad --timeout before anything starts', async () => {
    const user = new TestUser(sandbox);
    const result = await startCli(user, ['auth', 'login', '--timeout', 'soon']).done;
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--timeout: "soon" is not a duration/);
  });
});

describe('a failed auth login leaves no profile it created, and no secret', () => {
  const storedText = (user: TestUser) => (fs.existsSync(user.configPath) ? fs.readFileSync(user.configPath, 'utf8') : '');

  it('client credentials refused (a wrong secret): exit 4, no profile, the secret stored nowhere', async () => {
    const user = new TestUser(sandbox, { PLATFORM_SECURE_STORAGE: 'file' });
    const wrong = 'not-the-secret-of-this-app';
    const result = await user.run(['auth', 'login', '--client-credentials', '--profile', 'svc', '--client-id', 'sandbox-demo-client'], {
      env: { PLATFORM_CLIENT_SECRET: wrong },
    });
    expect(result.code).toBe(4);
    expect(config(user).profiles.svc).toBeUndefined();
    expect(storedText(user)).not.toContain(wrong);
    expect((await user.json<Array<{ profile: string }>>(['auth', 'status'])).map((p) => p.profile)).not.toContain('svc');
  });

  it('a browser sign-in denied: no profile (it was created to ask through), nor its client secret', async () => {
    const user = new TestUser(sandbox, { PLATFORM_SECURE_STORAGE: 'file' });
    let visit!: Promise<Visit>;
    const result = await startCli(user, ['auth', 'login', '--profile', 'work', '--consent'], {
      openUrl: async (url) => void (visit = visitAuthorize(url, 'deny')),
    }).done;
    await visit;
    expect(result.code).toBe(1);
    expect(config(user).profiles.work).toBeUndefined();
    expect(storedText(user)).not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
  });

  it('a profile that was there keeps what it had', async () => {
    const user = new TestUser(sandbox, { PLATFORM_SECURE_STORAGE: 'file' });
    const login = ['auth', 'login', '--client-credentials', '--profile', 'svc', '--client-id', 'sandbox-demo-client'];
    expect((await user.run(login, { env: { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET } })).code).toBe(0);
    let visit!: Promise<Visit>;
    const denied = await startCli(user, ['auth', 'login', '--profile', 'svc', '--consent'], {
      openUrl: async (url) => void (visit = visitAuthorize(url, 'deny')),
    }).done;
    await visit;
    expect(denied.code).toBe(1);
    expect(config(user).profiles.svc?.token?.grant).toBe('client_credentials');
  });

  it('a profile that was there, given a wrong client secret: still signed in, with its own secret', async () => {
    const user = new TestUser(sandbox, { PLATFORM_SECURE_STORAGE: 'file' });
    const login = ['auth', 'login', '--client-credentials', '--profile', 'svc', '--client-id', 'sandbox-demo-client'];
    expect((await user.run(login, { env: { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET } })).code).toBe(0);
    const stored = storedText(user);
    const wrong = 'not-the-secret-of-this-app';
    expect((await user.run(login, { env: { PLATFORM_CLIENT_SECRET: wrong } })).code).toBe(4);
    // Before: the refused login had cleared the token and stored the wrong secret.
    expect(storedText(user)).not.toContain(wrong);
    expect(JSON.parse(storedText(user))).toEqual(JSON.parse(stored));
    expect((await user.run(['auth', 'token', '--profile', 'svc'])).code).toBe(0);
  });
});
