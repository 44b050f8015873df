// Authenticated deliveries (spec 6.3 rule 5). `webhooks listen --basic-auth` and
// `--oauth-client` require what a receiver behind Basic Auth or an OAuth gateway would (401
// otherwise, never forwarded); the sandbox delivers with Basic, or with a client-credentials
// token from the receiver's token URL, kept until it expires, and retries a 401 as a 500.
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import type { Clock } from '../../../src/base/io.js';
import { sign } from '../../../src/webhooks/hmac.js';
import fs from 'node:fs';
import path from 'node:path';
import { sandboxOnFreePort, tempDir } from '../../helpers/cli.js';
import { listen } from '../../helpers/listen.js';
import { userToken } from '../../helpers/rider.js';
import { api } from '../../helpers/sandbox.js';
import { rideToCompletion, startReceiver } from '../../helpers/webhooks.js';

const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

const body = Buffer.from(
  JSON.stringify({
    event_id: '3a1ef5d1-8f2b-4c51-9d2e-3c7ab35d8b10',
    event_time: 1764201600,
    event_type: 'requests.status_changed',
    meta: { user_id: 'u1', resource_id: 'r1', resource_type: 'request', status: 'accepted' },
    resource_href: 'https://api.example/v1.2/requests/r1',
  }),
);

async function post(url: string, headers: Record<string, string> = {}, payload: Buffer = body): Promise<{ status: number; headers: Headers; text: string }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-platform-signature': sign(payload, SANDBOX_DEMO_CLIENT_SECRET), ...headers },
    body: payload,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

async function fastSandbox(options: Parameters<typeof sandboxOnFreePort>[0] = {}): Promise<Sandbox> {
  const sandbox = await sandboxOnFreePort({ timeScale: 20_000, ...options });
  cleanup.push(() => sandbox.close());
  return sandbox;
}

async function setAuth(sandbox: Sandbox, settings: Record<string, unknown>): Promise<void> {
  const put = await api(sandbox.url, undefined, 'PUT', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook`, settings);
  expect(put.status, JSON.stringify(put.body)).toBe(204);
}

/** A clock both the sandbox and the listener read, moved on by the test (token lifetimes). */
function sharedClock(): Clock & { advance(ms: number): void } {
  let ahead = 0;
  return {
    now: () => Date.now() + ahead,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal!.reason as Error);
        };
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, ms);
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
    advance: (ms) => (ahead += ms),
  };
}

describe('webhooks listen --basic-auth', () => {
  it('answers 401 with a Basic challenge without the credentials or with wrong ones, 200 with them; only the authorized one is forwarded', async () => {
    const app = await startReceiver();
    cleanup.push(() => app.close());
    const sandbox = await fastSandbox();
    const save = path.join(tempDir(), 'deliveries.ndjson');
    const listener = await listen(sandbox, cleanup, ['--basic-auth', 'hooks:s3cret-pass', '--forward-to', app.url, '--save', save]);
    expect(listener.run.stderr()).toMatch(/requiring Basic credentials/);
    expect(listener.run.stderr()).not.toContain('s3cret-pass');

    const none = await post(listener.url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    expect((await post(listener.url, { authorization: basic('hooks', 'wrong') })).status).toBe(401);
    expect((await post(listener.url, { authorization: basic('hooks', 's3cret-pass') })).status).toBe(200);

    const result = await listener.stop();
    expect(result.code).toBe(0);
    const events = listener.events();
    expect(events.map((e) => [e.auth, e.forwarded])).toEqual([
      ['unauthorized', false],
      ['unauthorized', false],
      ['authorized', true],
    ]);
    expect(events[0]!.auth_reason).toBe('no Authorization header (Basic required)');
    expect(events[1]!.auth_reason).toBe('wrong Basic credentials');
    // The refused ones were not counted as seen: the authorized retry is no duplicate.
    expect(events[2]!.duplicate).toBe(false);
    expect(app.received).toHaveLength(1);
    expect(app.received[0]!.header('authorization')).toBe(basic('hooks', 's3cret-pass'));
    expect(result.stdout + result.stderr).not.toContain('s3cret-pass');
    // The saved deliveries keep the scheme, not the credentials.
    const saved = fs.readFileSync(save, 'utf8');
    expect(saved).not.toContain(Buffer.from('hooks:s3cret-pass').toString('base64'));
    expect(saved).toContain('"Basic [REDACTED]"');
  });
});

describe('webhooks listen --oauth-client', () => {
  it('serves a client-credentials token endpoint; a forged or missing bearer gets 401, an issued one 200', async () => {
    const sandbox = await fastSandbox();
    const listener = await listen(sandbox, cleanup, ['--oauth-client', 'gateway:client-secret-1']);
    expect(listener.run.stderr()).toMatch(new RegExp(`requiring a Bearer token from ${listener.url}/oauth/token \\(client gateway`));

    const form = (extra: Record<string, string>) => new URLSearchParams({ grant_type: 'client_credentials', ...extra }).toString();
    const tokenAt = (headers: Record<string, string>, payload: string) =>
      fetch(`${listener.url}/oauth/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, body: payload });
    const refused = await tokenAt({ authorization: basic('gateway', 'nope') }, form({}));
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: 'invalid_client' });
    expect((await tokenAt({}, 'grant_type=password&username=a&password=b')).status).toBe(400);
    // client_secret_post is accepted as well as HTTP Basic.
    const posted = await tokenAt({}, form({ client_id: 'gateway', client_secret: 'client-secret-1' }));
    expect(posted.status).toBe(200);
    const issued = (await (await tokenAt({ authorization: basic('gateway', 'client-secret-1') }, form({ scope: 'hooks' }))).json()) as Record<string, unknown>;
    expect(issued).toMatchObject({ token_type: 'Bearer', expires_in: 300, scope: 'hooks' });

    expect((await post(listener.url)).status).toBe(401);
    const forged = await post(listener.url, { authorization: 'Bearer forged-token' });
    expect(forged.status).toBe(401);
    expect(forged.headers.get('www-authenticate')).toMatch(/^Bearer .*error="invalid_token"/);
    expect((await post(listener.url, { authorization: `Bearer ${String(issued.access_token)}` })).status).toBe(200);

    await listener.stop();
    expect(listener.events().map((e) => e.auth_reason ?? e.auth)).toEqual([
      'no Authorization header (Bearer token required)',
      'a Bearer token this listener did not issue',
      'authorized',
    ]);
  });

  it('a flag that does not go with the others is refused in one line, exit 2', async () => {
    const sandbox = await fastSandbox();
    const { TestUser } = await import('../../helpers/cli.js');
    const user = new TestUser(sandbox);
    const both = await user.run(['webhooks', 'listen', '--port', '0', '--basic-auth', 'a:b', '--oauth-client', 'c:d']);
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/--basic-auth and --oauth-client: give one/);
    const ttl = await user.run(['webhooks', 'listen', '--port', '0', '--oauth-token-ttl', '60']);
    expect(ttl.code).toBe(2);
    expect(ttl.stderr).toMatch(/--oauth-token-ttl goes with --oauth-client/);
    const bad = await user.run(['webhooks', 'listen', '--port', '0', '--basic-auth', 'no-colon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--basic-auth: expected ID:SECRET/);
  });
});

describe('sandbox deliveries with authentication', () => {
  it('OAuth: every event of a ride reaches listen --oauth-client authorized, with one token per expiry, not per delivery', async () => {
    const clock = sharedClock();
    const sandbox = await fastSandbox({ now: clock.now });
    const listener = await listen(sandbox, cleanup, ['--oauth-client', 'gateway:client-secret-1', '--oauth-token-ttl', '600'], { clock });
    await setAuth(sandbox, {
      webhook_url: `${listener.url}/hooks`,
      authentication: { type: 'oauth', token_url: `${listener.url}/oauth/token`, client_id: 'gateway', client_secret: 'client-secret-1', scopes: 'hooks' },
    });
    const settings = await api(sandbox.url, undefined, 'GET', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook`);
    expect(settings.body.authentication).toMatchObject({ type: 'oauth', client_id: 'gateway', token_url: `${listener.url}/oauth/token` });
    expect(JSON.stringify(settings.body)).not.toContain('client-secret-1');

    const token = await userToken(sandbox.url, 'profile request request_receipt');
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.tokenFetchesOf(SANDBOX_DEMO_CLIENT_ID)).toBe(1);
    // The token expires: the next ride's deliveries get one new token.
    clock.advance(601_000);
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.tokenFetchesOf(SANDBOX_DEMO_CLIENT_ID)).toBe(2);

    const result = await listener.stop();
    const events = listener.events();
    expect(events).toHaveLength(12);
    for (const e of events) expect(e).toMatchObject({ valid: true, auth: 'authorized' });
    expect(result.stderr.match(/issued an access token/g)).toHaveLength(2);
    expect(sandbox.webhooks.attempts.every((a) => !a.auth_failure)).toBe(true);
  });

  it('Basic: a receiver that answers 401 is retried on the schedule of a 500, the failure logged as authentication; then accepted', async () => {
    // 401 to the first two requests, then 200; every request's Authorization is recorded.
    const app = await startReceiver((n) => (n <= 2 ? 401 : 200));
    cleanup.push(() => app.close());
    const logged: string[] = [];
    const sandbox = await fastSandbox({
      webhookUrl: app.url,
      webhookAuth: { type: 'basic', user: 'hooks', password: 's3cret-pass' },
      log: (line) => logged.push(line),
    });
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();

    const first = sandbox.webhooks.attempts.filter((a) => a.event_id === sandbox.webhooks.attempts[0]!.event_id);
    expect(first.map((a) => [a.attempt, 'status' in a.result ? a.result.status : a.result.error, a.auth_failure])).toEqual([
      [1, 401, true],
      [2, 401, true],
      [3, 200, false],
    ]);
    expect(app.received.length).toBeGreaterThanOrEqual(8);
    for (const got of app.received) expect(got.header('authorization')).toBe(basic('hooks', 's3cret-pass'));
    expect(logged.find((l) => / HTTP 401 \(authentication failed\) \(attempt 1\/7, retry in 30 s/.test(l))).toBeDefined();
    const log = await api(sandbox.url, undefined, 'GET', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook/deliveries`);
    expect(log.body.deliveries[0]).toMatchObject({ delivered: true, attempts: 3, auth_failures: 2 });
    expect(JSON.stringify(log.body)).not.toContain('s3cret-pass');
  });

  it('OAuth: a kept token the receiver refuses (expired on its clock) is replaced at once, within the same attempt', async () => {
    const listenerClock = sharedClock();
    const sandbox = await fastSandbox();
    const listener = await listen(sandbox, cleanup, ['--oauth-client', 'gateway:client-secret-1', '--oauth-token-ttl', '60'], { clock: listenerClock });
    await setAuth(sandbox, {
      webhook_url: `${listener.url}/hooks`,
      authentication: { type: 'oauth', token_url: `${listener.url}/oauth/token`, client_id: 'gateway', client_secret: 'client-secret-1' },
    });
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    // The listener's clock runs past the token's life; the sandbox's does not, so it sends the kept token.
    listenerClock.advance(61_000);
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.tokenFetchesOf(SANDBOX_DEMO_CLIENT_ID)).toBe(2);
    // Every event accepted at its first attempt: the refused token cost one request, not a retry an hour long.
    expect(sandbox.webhooks.attempts.map((a) => [a.attempt, a.auth_failure])).toEqual(Array.from({ length: 12 }, () => [1, false]));
    await listener.stop();
    const events = listener.events();
    expect(events.filter((e) => e.auth === 'unauthorized').map((e) => e.auth_reason)).toEqual(['an expired Bearer token']);
    expect(events.filter((e) => e.auth === 'authorized')).toHaveLength(12);
  });

  it('OAuth: a token URL that refuses the client fails every attempt as an authentication failure, retried, and nothing reaches the receiver', async () => {
    const sandbox = await fastSandbox();
    const listener = await listen(sandbox, cleanup, ['--oauth-client', 'gateway:client-secret-1']);
    await setAuth(sandbox, {
      webhook_url: `${listener.url}/hooks`,
      authentication: { type: 'oauth', token_url: `${listener.url}/oauth/token`, client_id: 'gateway', client_secret: 'wrong' },
    });
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    const attempts = sandbox.webhooks.attempts;
    // Six events, seven attempts each.
    expect(attempts).toHaveLength(42);
    for (const a of attempts)
      expect(a).toMatchObject({ auth_failure: true, result: { error: expect.stringMatching(/token URL .*HTTP 401 \(invalid_client\)/) } });
    await listener.stop();
    expect(listener.events()).toEqual([]);
  });
});

describe('webhooks trigger and replay with authentication', () => {
  it('trigger sends Basic or an OAuth token as the platform would; without them the receiver refuses it (rejected, 401, not retried)', async () => {
    const sandbox = await fastSandbox();
    const { TestUser } = await import('../../helpers/cli.js');
    const user = new TestUser(sandbox);
    const basicListener = await listen(sandbox, cleanup, ['--basic-auth', 'hooks:s3cret-pass']);
    const to = `${basicListener.url}/hooks`;
    const without = await user.run(['webhooks', 'trigger', 'requests.status_changed', '--to', to, '-o', 'json']);
    expect(without.code).toBe(1);
    expect(JSON.parse(without.stdout)).toMatchObject({ verdict: 'rejected', outcome: 'HTTP 401', attempts: 1 });
    const wrong = await user.run(['webhooks', 'trigger', 'requests.status_changed', '--to', to, '--basic-auth', 'hooks:nope', '-o', 'json']);
    expect(JSON.parse(wrong.stdout)).toMatchObject({ verdict: 'rejected', outcome: 'HTTP 401' });
    const withBasic = await user.run(['webhooks', 'trigger', 'requests.status_changed', '--to', to, '--basic-auth', 'hooks:s3cret-pass', '-o', 'json']);
    expect(withBasic.code, withBasic.stderr).toBe(0);
    expect(JSON.parse(withBasic.stdout)).toMatchObject({ verdict: 'delivered', outcome: 'HTTP 200' });
    expect(withBasic.stdout + withBasic.stderr).not.toContain('s3cret-pass');
    await basicListener.stop();
    expect(basicListener.events().map((e) => e.auth)).toEqual(['unauthorized', 'unauthorized', 'authorized']);

    const oauthListener = await listen(sandbox, cleanup, ['--oauth-client', 'gateway:client-secret-1']);
    const oauth = await user.run([
      'webhooks',
      'trigger',
      'requests.receipt_ready',
      '--to',
      `${oauthListener.url}/hooks`,
      '--oauth-token-url',
      `${oauthListener.url}/oauth/token`,
      '--oauth-client',
      'gateway:client-secret-1',
      '-o',
      'json',
    ]);
    expect(oauth.code, oauth.stderr).toBe(0);
    expect(JSON.parse(oauth.stdout)).toMatchObject({ verdict: 'delivered' });
    await oauthListener.stop();
    expect(oauthListener.events().map((e) => e.auth)).toEqual(['authorized']);
  });

  it('replay fetches one token for all its events; a token URL that refuses the client is one line per event, not delivered', async () => {
    const sandbox = await fastSandbox();
    const { TestUser } = await import('../../helpers/cli.js');
    const user = new TestUser(sandbox);
    const listener = await listen(sandbox, cleanup, ['--oauth-client', 'gateway:client-secret-1']);
    const dir = tempDir();
    const events = Array.from({ length: 3 }, (_, i) =>
      JSON.stringify({
        event_id: `e-${i}`,
        event_time: 1764201600,
        event_type: 'requests.status_changed',
        meta: { user_id: 'u', resource_id: `r${i}`, resource_type: 'request', status: 'accepted' },
        resource_href: 'https://x/r',
      }),
    );
    const file = path.join(dir, 'events.ndjson');
    fs.writeFileSync(file, `${events.join('\n')}\n`);
    const clientFile = path.join(dir, 'client');
    fs.writeFileSync(clientFile, 'gateway:client-secret-1\n', { mode: 0o600 });
    const args = ['webhooks', 'replay', '--to', `${listener.url}/hooks`, '--oauth-token-url', `${listener.url}/oauth/token`, '--max-attempts', '1', file];
    const replayed = await user.run([...args, '--oauth-client', `@${clientFile}`]);
    expect(replayed.code, replayed.stderr).toBe(0);
    const refused = await user.run([...args, '--oauth-client', 'gateway:wrong']);
    expect(refused.code).toBe(1);
    expect(refused.stdout.trim().split('\n')).toHaveLength(3);
    expect(refused.stdout).toMatch(/not delivered {2}token URL .*HTTP 401 \(invalid_client\)/);
    const result = await listener.stop();
    expect(result.stderr.match(/issued an access token/g)).toHaveLength(1);
    expect(listener.events().map((e) => e.auth)).toEqual(['authorized', 'authorized', 'authorized']);
  });
});
