// `webhooks replay` and `webhooks trigger` against real receivers on port 0: back-off delays
// recorded by a fake clock (never timed), a bounded number of attempts, one line per event,
// re-signing, in order; and the limits of `webhooks listen` (413, 127.0.0.1 only).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { clientBackoff } from '../../../src/webhooks/delivery.js';
import { sign } from '../../../src/webhooks/hmac.js';
import { startCli } from '../../helpers/auth.js';
import { fastClock, sandboxOnFreePort, tempDir, TestUser } from '../../helpers/cli.js';
import { startReceiver, type TestReceiver } from '../../helpers/webhooks.js';
import { waitFor } from '../../helpers/wait.js';

const secret = 'replay-secret';
let sandbox: Sandbox;
let user: TestUser;
let dir: string;
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: secret });
  dir = tempDir();
});
afterAll(() => sandbox.close());
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});
async function receiver(answer?: (n: number) => number | 'hang'): Promise<TestReceiver> {
  const r = await startReceiver(answer);
  cleanup.push(() => r.close());
  return r;
}
const event = (id: string, status = 'accepted') =>
  JSON.stringify({
    event_id: id,
    event_time: 1700000000,
    event_type: 'requests.status_changed',
    meta: { user_id: 'u', resource_id: 'r1', resource_type: 'request', status },
    resource_href: 'http://127.0.0.1:4010/v1.2/requests/r1',
  });

describe('platform webhooks replay', () => {
  it('a receiver answering 500 twice gets the third attempt, after waits of base and 2 x base; one line for the event', async () => {
    const app = await receiver((n) => (n <= 2 ? 500 : 200));
    const clock = fastClock();
    const body = event('e-500');
    const result = await user.run(['webhooks', 'replay', '--to', app.url, '--backoff-base', '10ms', '-'], { stdin: body, clock });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('e-500  requests.status_changed  delivered  HTTP 200  3 attempts\n');
    expect(result.stderr).toContain('e-500  attempt 1/3  HTTP 500  retry in 0.01s\ne-500  attempt 2/3  HTTP 500  retry in 0.02s\n');
    expect(clock.slept).toEqual([10, 20]);
    expect(app.received).toHaveLength(3);
    for (const got of app.received) {
      expect(got.body.toString()).toBe(body);
      expect(got.header('X-Platform-Signature')).toBe(sign(Buffer.from(body), secret));
      expect(got.header('X-Environment')).toBe('sandbox');
    }
  });

  it('one that never answers gets exactly --max-attempts attempts, the waits doubling; exit 1', async () => {
    // Unreachable: a port nobody listens on.
    const closed = await receiver();
    const url = closed.url;
    await closed.close();
    const clock = fastClock();
    const result = await user.run(['webhooks', 'replay', '--to', url, '--max-attempts', '7', '--backoff-base', '0.001', '-o', 'json', '-'], {
      stdin: event('e-gone'),
      clock,
    });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ event_id: 'e-gone', delivered: false, verdict: 'not delivered', outcome: 'ECONNREFUSED', attempts: 7 });
    expect(clock.slept).toEqual(clientBackoff(1, 7));
    expect(clock.slept).toEqual([1, 2, 4, 8, 16, 32]);
    expect(result.stderr).toMatch(/1 of 1 deliveries not delivered/);

    // The earlier flag name still works: --attempts is --max-attempts.
    const older = await user.run(['webhooks', 'replay', '--to', url, '--attempts', '2', '--backoff-base', '0.001', '-o', 'json', '-'], {
      stdin: event('e-older'),
      clock: fastClock(),
    });
    expect(JSON.parse(older.stdout)).toMatchObject({ event_id: 'e-older', delivered: false, attempts: 2 });

    // Connected but silent: each attempt times out; exactly the default 3 reach it.
    const silent = await receiver(() => 'hang');
    const hung = await user.run(['webhooks', 'replay', '--to', silent.url, '--backoff-base', '0', '--timeout', '0.05', '-'], {
      stdin: event('e-hang'),
      clock: fastClock(),
    });
    expect(hung.code).toBe(1);
    expect(silent.received).toHaveLength(3);
    expect(hung.stdout).toBe('e-hang  requests.status_changed  not delivered  no answer within 0.05 s  3 attempts\n');
  });

  it('resends a capture file of listen --save in order, re-signed with the secret, headers kept; 4xx is final', async () => {
    const capture = path.join(dir, 'capture.ndjson');
    const bodies = [event('c-1', 'accepted'), event('c-2', 'in_progress'), `${event('c-3', 'completed')}\n`];
    fs.writeFileSync(
      capture,
      bodies
        .map((b, i) =>
          JSON.stringify({
            received_at: new Date(0).toISOString(),
            method: 'POST',
            path: '/hooks',
            headers: [
              ['Host', 'old'],
              ['X-Platform-Signature', 'f'.repeat(64)],
              ['X-Environment', 'sandbox'],
              ['X-Trace', `t${i}`],
            ],
            body_base64: Buffer.from(b).toString('base64'),
          }),
        )
        .join('\n'),
    );
    const app = await receiver((n) => (n === 2 ? 400 : 200));
    const result = await user.run(['webhooks', 'replay', '--to', app.url, capture], { clock: fastClock() });
    expect(result.code).toBe(1); // c-2 was rejected with 400: not retried, never accepted
    expect(result.stdout.trim().split('\n')).toEqual([
      'c-1  requests.status_changed  delivered  HTTP 200  1 attempt',
      'c-2  requests.status_changed  rejected  HTTP 400  1 attempt',
      'c-3  requests.status_changed  delivered  HTTP 200  1 attempt',
    ]);
    expect(result.stderr).toMatch(/1 of 3 deliveries not delivered/);
    expect(app.received.map((r) => r.body.toString())).toEqual(bodies);
    for (const [i, got] of app.received.entries()) {
      expect(got.header('X-Platform-Signature')).toBe(sign(Buffer.from(bodies[i]!), secret));
      expect(got.header('X-Trace')).toBe(`t${i}`);
      expect(got.header('Host')).not.toBe('old');
    }
  });

  it('by default a dead URL costs 3 attempts and 3 s of waiting per event: a dozen events, one line each, then how many were not delivered', async () => {
    const closed = await receiver();
    const url = closed.url;
    await closed.close();
    const clock = fastClock();
    const ids = Array.from({ length: 12 }, (_, i) => `dead-${i + 1}`);
    const result = await user.run(['webhooks', 'replay', '--to', url, '-'], { stdin: ids.map((id) => event(id)).join('\n'), clock });
    expect(result.code).toBe(1);
    expect(result.stdout.trim().split('\n')).toEqual(ids.map((id) => `${id}  requests.status_changed  not delivered  ECONNREFUSED  3 attempts`));
    // Waits of 1 s and 2 s per event on the injected clock (spec 6.3.3's 30 s, 30 s, 60 s ... is the platform's).
    expect(clock.slept).toEqual(ids.flatMap(() => [1000, 2000]));
    expect(result.stderr.trim().split('\n').at(-1)).toMatch(/12 of 12 deliveries not delivered to http:\/\/127\.0\.0\.1:\d+\/hooks$/);
  });

  it('bad input exits 2 with one line', async () => {
    for (const [args, stdin, message] of [
      [['webhooks', 'replay', '--to', 'ftp://x', '-'], event('x'), /--to must be an http/],
      [['webhooks', 'replay', '--to', 'http://127.0.0.1:9/', '-'], '{"nope":1}', /has no event_type/],
      [['webhooks', 'replay', '--to', 'http://127.0.0.1:9/', '--max-attempts', '8', '-'], event('x'), /--max-attempts must be 1-7/],
      [['webhooks', 'replay', '--to', 'http://127.0.0.1:9/', '--backoff-base', 'soon', '-'], event('x'), /--backoff-base: "soon" is not a duration/],
    ] as const) {
      const result = await user.run([...args], { stdin });
      expect(result.code).toBe(2);
      expect(result.stderr).toMatch(message);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    }
  });
});

describe('platform webhooks trigger', () => {
  it('sends a valid, signed payload of each type with a fresh event_id and event_time', async () => {
    const app = await receiver();
    const clock = fastClock();
    for (const [type, extra] of [
      ['requests.status_changed', ['--resource-id', 'ride-1', '--status', 'in_progress']],
      ['requests.receipt_ready', ['--resource-id', 'ride-1']],
      ['all_trips.status_changed', []],
    ] as const) {
      const result = await user.run(['webhooks', 'trigger', type, '--to', app.url, ...extra], { clock });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(new RegExp(`^[0-9a-f-]{36}  ${type.replace('.', '\\.')}  delivered  HTTP 200  1 attempt\n$`));
    }
    const [a, b, c] = app.received.map((r) => ({ r, e: JSON.parse(r.body.toString()) }));
    expect(a!.e).toMatchObject({ event_type: 'requests.status_changed', meta: { resource_id: 'ride-1', status: 'in_progress', resource_type: 'request' } });
    expect(b!.e).toMatchObject({
      event_type: 'requests.receipt_ready',
      meta: { status: 'ready', resource_type: 'request_receipt' },
      resource_href: `${sandbox.url}/v1.2/requests/ride-1/receipts`,
    });
    expect(c!.e.meta.status).toBe('accepted');
    expect(new Set([a, b, c].map((x) => x!.e.event_id)).size).toBe(3);
    for (const { r, e } of [a, b, c].map((x) => x!)) {
      expect(Math.abs(e.event_time - Date.now() / 1000)).toBeLessThan(60);
      expect(r.header('X-Platform-Signature')).toBe(sign(r.body, secret));
      // The CLI verifies what it sent.
      const check = await user.run(['webhooks', 'verify', '-', '--signature', r.header('X-Platform-Signature')!], { stdin: r.body.toString() });
      expect(check.code).toBe(0);
    }
    const bad = await user.run(['webhooks', 'trigger', 'requests.deleted', '--to', app.url]);
    expect(bad.code).toBe(2);
  });
});

describe('platform webhooks listen: limits', () => {
  it('answers a body over --max-body with 413 and neither prints nor forwards it; binds 127.0.0.1 only; Ctrl-C stops it', async () => {
    const app = await receiver();
    const controller = new AbortController();
    const run = startCli(user, ['webhooks', 'listen', '--port', '0', '--max-body', '300', '--forward-to', app.url], { signal: controller.signal });
    const [, url, port] = await run.waitForStderr(/Listening on (http:\/\/127\.0\.0\.1:(\d+))/);
    const post = (body: string, signature = sign(Buffer.from(body), secret)) =>
      fetch(url!, { method: 'POST', body, headers: { 'x-platform-signature': signature, 'x-environment': 'sandbox' } });
    const big = JSON.stringify({ event_type: 'requests.status_changed', pad: 'x'.repeat(400) });
    const refused = await post(big);
    expect(refused.status).toBe(413);
    const small = event('small');
    expect(small.length).toBeLessThan(300);
    const ok = await post(small);
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe('');
    const forged = await post(event('forged', 'completed'), 'a'.repeat(64));
    expect(forged.status).toBe(200);
    await waitFor(() => app.received.length >= 1, { what: 'the forward', state: () => app.received.length });

    // Not reachable on any other address of this machine.
    const others = Object.values(os.networkInterfaces())
      .flat()
      .filter((i) => i && i.family === 'IPv4' && !i.internal)
      .map((i) => i!.address);
    for (const address of others) {
      const reached = await new Promise<boolean>((resolve) => {
        const socket = net.connect(Number(port), address, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on('error', () => resolve(false));
      });
      expect(reached, address).toBe(false);
    }

    controller.abort();
    const result = await run.done;
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}valid {2}requests\.status_changed {2}r1 {2}accepted {2}small$/),
      expect.stringMatching(
        /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}invalid {2}requests\.status_changed {2}r1 {2}completed {2}forged {2}\(the HMAC-SHA256 of the body does not match/,
      ),
    ]);
    expect(result.stderr).toMatch(/refused a body over 300 bytes \(413\)/);
    expect(app.received.map((r) => r.body.toString())).toEqual([small]);
    expect(result.stdout + result.stderr).not.toContain(secret);
  });
});
