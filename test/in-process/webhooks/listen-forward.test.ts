// `webhooks listen --forward-to` as a user watches it: one stderr line per forward with the
// target's answer and the time it took on the injected clock (or why it could not be reached),
// stdout unchanged, and a Ctrl-C summary that counts failed forwards as not forwarded.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import type { Clock } from '../../../src/base/io.js';
import { sign } from '../../../src/webhooks/hmac.js';
import { startCli } from '../../helpers/auth.js';
import { fastClock, sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { startReceiver, type TestReceiver } from '../../helpers/webhooks.js';
import { waitFor } from '../../helpers/wait.js';

const secret = 'listen-secret';
let sandbox: Sandbox;
let user: TestUser;
const cleanup: Array<() => Promise<unknown>> = [];
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: secret });
});
afterAll(() => sandbox.close());
afterEach(async () => {
  for (const fn of cleanup.splice(0)) await fn();
});

const event = (id: string, resource: string) =>
  JSON.stringify({
    event_id: id,
    event_time: 1700000000,
    event_type: 'requests.status_changed',
    meta: { user_id: 'u', resource_id: resource, resource_type: 'request', status: 'accepted' },
    resource_href: `http://127.0.0.1:4010/v1.2/requests/${resource}`,
  });

/** A clock whose every reading is 12 ms after the last. */
function steppingClock(): Clock {
  const base = fastClock();
  let t = Date.parse('2025-03-01T12:00:00Z');
  return { now: () => (t += 12), sleep: base.sleep };
}

/** Runs listen forwarding to `target`, posts `ids` (each its own resource), waits for `settled`, then Ctrl-C. */
async function listenAndPost(target: string, ids: string[], settled: (stderr: string) => boolean) {
  const controller = new AbortController();
  const run = startCli(user, ['webhooks', 'listen', '--port', '0', '--forward-to', target], { signal: controller.signal, clock: steppingClock() });
  const [, url] = await run.waitForStderr(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
  for (const id of ids) {
    const body = event(id, `r-${id}`);
    const res = await fetch(url!, { method: 'POST', body, headers: { 'x-platform-signature': sign(Buffer.from(body), secret) } });
    expect(res.status).toBe(200);
  }
  await waitFor(() => settled(run.stderr()), { what: 'the forwards', state: run.stderr });
  controller.abort();
  return run.done;
}

describe('webhooks listen --forward-to', () => {
  it('prints each forward with its status and time on stderr; a non-2xx answer counts as not forwarded', async () => {
    const app: TestReceiver = await startReceiver((n) => (n === 2 ? 500 : 200));
    cleanup.push(() => app.close());
    const result = await listenAndPost(app.url, ['ok-1', 'bad-2'], (err) => (err.match(/^forward /gm) ?? []).length === 2);
    expect(result.code).toBe(0);
    const forwards = result.stderr.split('\n').filter((l) => l.startsWith('forward '));
    expect(forwards.sort()).toEqual([
      expect.stringMatching(/^forward bad-2 -> 500 \d+ ms \(not forwarded\)$/),
      expect.stringMatching(/^forward ok-1 -> 200 \d+ ms$/),
    ]);
    // Timed on the injected clock: its readings are 12 ms apart.
    for (const line of forwards) expect(Number(/(\d+) ms/.exec(line)![1]) % 12).toBe(0);
    // stdout keeps its one line per event, nothing else.
    expect(result.stdout.trim().split('\n')).toHaveLength(2);
    expect(result.stdout).not.toMatch(/forward/);
    expect(result.stderr).toMatch(/, 1 not forwarded\./);
  });

  it('a target that refuses connections: one ECONNREFUSED line per delivery and the summary counts them', async () => {
    const gone = await startReceiver();
    await gone.close();
    const result = await listenAndPost(gone.url, ['a-1', 'a-2', 'a-3'], (err) => (err.match(/ECONNREFUSED/g) ?? []).length === 3);
    expect(result.code).toBe(0);
    for (const id of ['a-1', 'a-2', 'a-3']) expect(result.stderr).toContain(`forward ${id} -> ECONNREFUSED (not forwarded)\n`);
    expect(result.stderr).toMatch(/3 deliveries, 3 valid, .*, 3 not forwarded\./);
  });
});

describe('webhooks listen, a body that does not match its signature', () => {
  it("its line says which usual change explains it (verify's diagnosis), or that none does", async () => {
    const controller = new AbortController();
    const run = startCli(user, ['webhooks', 'listen', '--port', '0'], { signal: controller.signal });
    const [, url] = await run.waitForStderr(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
    const body = event('m-1', 'r-m-1');
    // Signed without the newline a proxy (or `echo`) then added; and signed with a secret this user does not have.
    await fetch(url!, { method: 'POST', body: `${body}\n`, headers: { 'x-platform-signature': sign(Buffer.from(body), secret) } });
    await fetch(url!, { method: 'POST', body, headers: { 'x-platform-signature': sign(Buffer.from(body), 'not-a-secret-here') } });
    await waitFor(() => (run.stdout().match(/invalid/g) ?? []).length === 2, { what: 'the two lines', state: run.stdout });
    controller.abort();
    const result = await run.done;
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(
      /^\S+ {2}invalid {2}.*\(the HMAC-SHA256 of the body does not match: it matches the body without its final newline: a newline was added/,
    );
    expect(lines[1]).toMatch(
      /the HMAC-SHA256 of the body does not match: wrong secret, or not the body that was signed \(none of the usual changes to a body explains it\)/,
    );
    expect(result.stdout).not.toContain('not-a-secret-here');
  });
});

describe('webhooks listen that cannot start', () => {
  it('a port in use, or a --save it cannot write: one line naming the flag, exit 2', async () => {
    const busy = new URL(sandbox.url).port;
    const inUse = await user.run(['webhooks', 'listen', '--port', busy]);
    expect([inUse.code, inUse.stderr]).toEqual([
      2,
      `--port ${busy}: the port is in use on 127.0.0.1; stop what listens there, or give another (--port 0 picks a free one)\n`,
    ]);
    const nowhere = '/nonexistent-folder/deliveries.ndjson';
    const unwritable = await user.run(['webhooks', 'listen', '--port', '0', '--save', nowhere]);
    expect([unwritable.code, unwritable.stderr]).toEqual([2, `--save: cannot write ${nowhere} (ENOENT)\n`]);
    const folder = await user.run(['webhooks', 'listen', '--port', '0', '--save', '.']);
    expect([folder.code, folder.stderr]).toEqual([2, '--save: cannot write . (EISDIR)\n']);
  });
});
