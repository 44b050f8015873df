// `webhooks replay` and `webhooks trigger` against real receivers on port 0: back-off delays
// recorded by a fake clock (never timed), exactly 7 attempts, re-signing, in order; and the
// limits of `webhooks listen` (413, 127.0.0.1 only).
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { backoffSchedule } from '../../src/webhooks/delivery.js';
import { sign } from '../../src/webhooks/hmac.js';
import { startCli } from '../auth/helpers.js';
import { fastClock, sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';
import { startReceiver, until, type TestReceiver } from './helpers.js';

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
  it('a receiver answering 500 twice gets the third attempt, at the scaled back-off delays', async () => {
    const app = await receiver((n) => (n <= 2 ? 500 : 200));
    const clock = fastClock();
    const body = event('e-500');
    const result = await user.run(['webhooks', 'replay', '--to', app.url, '--backoff-base', '0.01', '-'], { stdin: body, clock });
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toEqual([
      'e-500  requests.status_changed  attempt 1/7  HTTP 500  retry in 0.01s',
      'e-500  requests.status_changed  attempt 2/7  HTTP 500  retry in 0.01s',
      'e-500  requests.status_changed  attempt 3/7  HTTP 200  accepted',
    ]);
    expect(clock.slept).toEqual([10, 10]); // attempts at 0, base, 2 x base
    expect(app.received).toHaveLength(3);
    for (const got of app.received) {
      expect(got.body.toString()).toBe(body);
      expect(got.header('X-Platform-Signature')).toBe(sign(Buffer.from(body), secret));
      expect(got.header('X-Environment')).toBe('sandbox');
    }
  });

  it('one that never answers gets exactly 7 attempts, at 30 s x 1, 2, 4 ... scaled; exit 1', async () => {
    // Unreachable: a port nobody listens on.
    const closed = await receiver();
    const url = closed.url;
    await closed.close();
    const clock = fastClock();
    const result = await user.run(['webhooks', 'replay', '--to', url, '--backoff-base', '0.001', '-o', 'json', '-'], { stdin: event('e-gone'), clock });
    expect(result.code).toBe(1);
    const attempts = result.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(attempts.map((a) => a.attempt)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(attempts.every((a) => a.verdict === 'retry' && a.outcome === 'ECONNREFUSED')).toBe(true);
    expect(clock.slept).toEqual(backoffSchedule(1, 7));
    expect(result.stderr).toMatch(/1 of 1 deliveries were never accepted/);

    // Connected but silent: each attempt times out; still exactly 7 reach it.
    const silent = await receiver(() => 'hang');
    const hung = await user.run(['webhooks', 'replay', '--to', silent.url, '--backoff-base', '0', '--timeout', '0.05', '-'], {
      stdin: event('e-hang'),
      clock: fastClock(),
    });
    expect(hung.code).toBe(1);
    expect(silent.received).toHaveLength(7);
    expect(hung.stdout).toMatch(/attempt 7\/7 {2}no answer within 0.05 s {2}gave up/);
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
    expect(result.stdout).toMatch(/c-2 {2}requests.status_changed {2}attempt 1\/7 {2}HTTP 400 {2}rejected \(not retried\)/);
    expect(app.received.map((r) => r.body.toString())).toEqual(bodies);
    for (const [i, got] of app.received.entries()) {
      expect(got.header('X-Platform-Signature')).toBe(sign(Buffer.from(bodies[i]!), secret));
      expect(got.header('X-Trace')).toBe(`t${i}`);
      expect(got.header('Host')).not.toBe('old');
    }
  });

  it('bad input exits 2 with one line', async () => {
    for (const [args, stdin, message] of [
      [['webhooks', 'replay', '--to', 'ftp://x', '-'], event('x'), /--to must be an http/],
      [['webhooks', 'replay', '--to', 'http://127.0.0.1:9/', '-'], '{"nope":1}', /has no event_type/],
      [['webhooks', 'replay', '--to', 'http://127.0.0.1:9/', '--attempts', '8', '-'], event('x'), /--attempts must be 1-7/],
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
      expect(result.stdout).toMatch(new RegExp(`^[0-9a-f-]{36}  ${type.replace('.', '\\.')}  attempt 1/7  HTTP 200  accepted\n$`));
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
    await until(() => app.received.length >= 1, 'the forward');

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
