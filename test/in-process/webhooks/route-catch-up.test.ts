// `webhooks listen --route TYPE=URL` (each event type to its own target, * for the rest) and
// `--since DURATION` (first catch up, in order and marked, on the deliveries missed while no
// listener ran: from the sandbox's delivery log, or this machine's inbox against an API
// that keeps none).
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sign } from '../../../src/webhooks/hmac.js';
import { startCli } from '../../helpers/auth.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { userToken } from '../../helpers/rider.js';
import { api } from '../../helpers/sandbox.js';
import { rideToCompletion, startReceiver, type TestReceiver } from '../../helpers/webhooks.js';
import { waitFor } from '../../helpers/wait.js';
import { listenInspecting } from '../../helpers/inbox.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function fastSandbox(): Promise<Sandbox> {
  const sandbox = await sandboxOnFreePort({ timeScale: 20_000 });
  cleanup.push(() => sandbox.close());
  return sandbox;
}

async function receiver(answer?: (n: number) => number): Promise<TestReceiver> {
  const r = await startReceiver(answer);
  cleanup.push(() => r.close());
  return r;
}

/** `webhooks listen --port 0 -o json ...args` until `settled`, then Ctrl-C; the JSON lines and stderr. */
async function listenUntil(user: TestUser, args: string[], settled: (stderr: string) => boolean | Promise<boolean>, post?: (url: string) => Promise<void>) {
  const controller = new AbortController();
  const run = startCli(user, ['webhooks', 'listen', '--port', '0', '-o', 'json', ...args], { signal: controller.signal });
  const [, url] = await run.waitForStderr(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
  await post?.(url!);
  await waitFor(() => settled(run.stderr()), { what: 'listen to settle', state: run.stderr });
  controller.abort();
  const result = await run.done;
  return {
    ...result,
    events: result.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const event = (type: string, id: string, status = 'accepted') =>
  JSON.stringify({
    event_id: id,
    event_time: 1700000000,
    event_type: type,
    meta: { user_id: 'u', resource_id: `r-${id}`, resource_type: 'request', status },
    resource_href: `http://127.0.0.1:4010/v1.2/requests/r-${id}`,
  });

describe('webhooks listen --route', () => {
  it('sends each event type to its own target and the rest to *', async () => {
    const sandbox = await fastSandbox();
    const receipts = await receiver();
    const rest = await receiver();
    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: 'route-secret' });
    const bodies = [event('requests.status_changed', 'a'), event('requests.receipt_ready', 'b', 'ready'), event('all_trips.status_changed', 'c')];
    const result = await listenUntil(
      user,
      ['--route', `requests.receipt_ready=${receipts.url}`, '--route', `*=${rest.url}`],
      (err) => (err.match(/^forward /gm) ?? []).length === 3,
      async (url) => {
        for (const body of bodies) await fetch(url, { method: 'POST', body, headers: { 'x-platform-signature': sign(Buffer.from(body), 'route-secret') } });
      },
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`routing requests.receipt_ready to ${receipts.url}, * to ${rest.url})`);
    expect(receipts.received.map((r) => r.body.toString())).toEqual([bodies[1]]);
    expect(rest.received.map((r) => r.body.toString()).sort()).toEqual([bodies[0], bodies[2]].sort());
  });

  it('a type without a route and no * is shown but not forwarded', async () => {
    const sandbox = await fastSandbox();
    const receipts = await receiver();
    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: 'route-secret' });
    const body = event('requests.status_changed', 'x');
    const result = await listenUntil(
      user,
      ['--route', `requests.receipt_ready=${receipts.url}`],
      (err) => err.includes('Listening'),
      async (url) => {
        await fetch(url, { method: 'POST', body, headers: { 'x-platform-signature': sign(Buffer.from(body), 'route-secret') } });
      },
    );
    expect(result.events).toEqual([expect.objectContaining({ event_id: 'x', valid: true, forwarded: false })]);
    expect(receipts.received).toHaveLength(0);
  });

  it.each([
    [['--route', 'requests.receipt_ready'], /^--route "requests\.receipt_ready": expected TYPE=URL/],
    [['--route', 'rides.done=http://127.0.0.1:1/'], /^--route "rides\.done=http:\/\/127\.0\.0\.1:1\/": unknown event type "rides\.done"/],
    [['--route', 'requests.receipt_ready=ftp://x'], /^--route requests\.receipt_ready must be an http:\/\/ or https:\/\/ URL/],
    [['--route', '*=http://127.0.0.1:1/', '--forward-to', 'http://127.0.0.1:2/'], /^--forward-to and --route \*=URL both name/],
    [['--open'], /^--open goes with --inspect/],
    [['--since', 'yesterday'], /^--since: "yesterday" is not a duration/],
  ])('bad input %j: one line, exit 2, nothing started', async (args, message) => {
    const sandbox = await fastSandbox();
    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: 's' });
    const result = await user.run(['webhooks', 'listen', '--port', '0', ...args]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stderr).not.toContain('Listening');
  });
});

describe('webhooks listen --since', () => {
  it("catches up first, in order and marked catch-up, on the sandbox's deliveries missed while no listener ran", async () => {
    const sandbox = await fastSandbox();
    const app = await receiver();
    // No listener yet: the demo application has no webhook URL, so nothing is delivered.
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    const rideId = await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    expect(sandbox.webhooks.attempts).toHaveLength(0);
    const log = await api(sandbox.url, undefined, 'GET', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook/deliveries`);
    expect(log.body.deliveries.map((d: { status: string; delivered: boolean }) => [d.status, d.delivered])).toEqual(
      ['processing', 'accepted', 'arriving', 'in_progress', 'completed', 'ready'].map((s) => [s, false]),
    );
    expect((await api(sandbox.url, undefined, 'GET', '/v1.2/sandbox/applications/nobody/webhook/deliveries')).status).toBe(404);
    const badSince = await api(sandbox.url, undefined, 'GET', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook/deliveries?since=soon`);
    expect(badSince.status).toBe(422);
    const future = new Date(Date.now() + 60_000).toISOString();
    expect(
      (await api(sandbox.url, undefined, 'GET', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook/deliveries?since=${future}`)).body.deliveries,
    ).toEqual([]);

    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: undefined });
    const result = await listenUntil(
      user,
      ['--since', '2h', '--forward-to', app.url],
      (err) => err.includes('Caught up; now live.') && app.received.length === 6,
    );
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(
      new RegExp(`Catching up: 6 deliveries missed since \\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z, from the sandbox's delivery log of ${SANDBOX_DEMO_CLIENT_ID}\\.`),
    );
    expect(result.events.map((e) => [e.status, e.valid, e.catch_up, e.resource_id])).toEqual(
      ['processing', 'accepted', 'arriving', 'in_progress', 'completed', 'ready'].map((s) => [s, true, true, rideId]),
    );
    // Forwarded byte for byte, signed as the sandbox signed them; one resource, so in order.
    expect(app.received.map((r) => r.body.toString('base64'))).toEqual(log.body.deliveries.map((d: { body_base64: string }) => d.body_base64));
    for (const r of app.received) expect(r.header('X-Platform-Signature')).toBe(sign(r.body, SANDBOX_DEMO_CLIENT_SECRET));
  });

  it('deliveries an app already accepted are not caught up on', async () => {
    const sandbox = await fastSandbox();
    const app = await receiver();
    sandbox.webhooks.setUrl(SANDBOX_DEMO_CLIENT_ID, app.url);
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    expect(app.received).toHaveLength(6);
    // The app was the URL then; now a listener starts and finds nothing missed.
    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: undefined });
    const result = await listenUntil(user, ['--since', '2h'], (err) => err.includes('Catching up'));
    expect(result.stderr).toMatch(/Catching up: 0 deliveries missed since /);
    expect(result.events).toEqual([]);
  });

  it("against an API without a delivery log, catches up from this machine's inbox: deliveries no forward was accepted for", async () => {
    const sandbox = await fastSandbox();
    const dead = await receiver(() => 503);
    const app = await receiver();
    // An application the API has no delivery log of: the same fallback as a real account.
    const user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: 'inbox-secret', PLATFORM_CLIENT_ID: 'not-a-sandbox-app' });
    const first = await listenInspecting(user, ['--forward-to', dead.url]);
    const bodies = [event('requests.status_changed', 'm1'), event('requests.status_changed', 'm2', 'arriving')];
    for (const body of bodies) await fetch(first.url, { method: 'POST', body, headers: { 'x-platform-signature': sign(Buffer.from(body), 'inbox-secret') } });
    await waitFor(() => (first.run.stderr().match(/^forward .* \(not forwarded\)$/gm) ?? []).length === 2, {
      what: 'two failed forwards',
      state: first.run.stderr,
    });
    await first.stop();

    const result = await listenUntil(user, ['--since', '1h', '--forward-to', app.url], () => app.received.length === 2);
    expect(result.stderr).toMatch(
      /Catching up: 2 deliveries missed since .*, from this machine's inbox \(.*inbox-local\.ndjson; no sandbox delivery log for not-a-sandbox-app\)\./,
    );
    expect(app.received.map((r) => r.body.toString())).toEqual(bodies);
    expect(result.events.map((e) => [e.event_id, e.catch_up])).toEqual([
      ['m1', true],
      ['m2', true],
    ]);
  });
});
