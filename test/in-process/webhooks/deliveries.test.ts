// Sandbox deliveries end to end: a ride driven to completed on a fast sandbox delivers its
// events, signed, to `platform webhooks listen`, which verifies, de-duplicates, saves and
// forwards them byte for byte to a test receiver. With chaos on (duplicates, out of order)
// the listener still ends on the right status.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../../helpers/cli.js';
import { userToken } from '../../helpers/rider.js';
import { api } from '../../helpers/sandbox.js';
import { sign } from '../../../src/webhooks/hmac.js';
import { listen } from '../../helpers/listen.js';
import { rideToCompletion, startReceiver, type TestReceiver } from '../../helpers/webhooks.js';
import { waitFor } from '../../helpers/wait.js';

const cleanup: Array<() => Promise<unknown> | void> = [];
afterEach(async () => {
  for (const fn of cleanup.splice(0).reverse()) await fn();
});

async function fastSandbox(extra: Parameters<typeof sandboxOnFreePort>[0] = {}): Promise<Sandbox> {
  const sandbox = await sandboxOnFreePort({ timeScale: 20_000, ...extra });
  cleanup.push(() => sandbox.close());
  return sandbox;
}

async function receiver(): Promise<TestReceiver> {
  const r = await startReceiver();
  cleanup.push(() => r.close());
  return r;
}

describe('sandbox deliveries to webhooks listen', () => {
  it('a ride driven to completed delivers its events, verified, in order, forwarded byte for byte and saved', async () => {
    const app = await receiver();
    const sandbox = await fastSandbox();
    const save = path.join(tempDir(), 'deliveries.ndjson');
    // An earlier listener's last line, cut short (the machine went down mid-write): closed off, not joined to the next.
    const cut = '{"at":1764201600000,"method":"POST","pa';
    fs.writeFileSync(save, cut);
    const listener = await listen(sandbox, cleanup, ['--forward-to', app.url, '--save', save]);
    sandbox.webhooks.setUrl(SANDBOX_DEMO_CLIENT_ID, `${listener.url}/webhooks`);

    const token = await userToken(sandbox.url, 'profile request request_receipt');
    const rideId = await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    await waitFor(() => app.received.length >= 6, { what: 'six forwarded deliveries', state: () => app.received.length });
    const result = await listener.stop();
    expect(result.code).toBe(0);

    const events = listener.events();
    expect(events.map((e) => [e.event_type, e.status])).toEqual([
      ['requests.status_changed', 'processing'],
      ['requests.status_changed', 'accepted'],
      ['requests.status_changed', 'arriving'],
      ['requests.status_changed', 'in_progress'],
      ['requests.status_changed', 'completed'],
      ['requests.receipt_ready', 'ready'],
    ]);
    for (const e of events) {
      expect(e).toMatchObject({ valid: true, resource_id: rideId, environment: 'sandbox', duplicate: false, out_of_order: false, forwarded: true });
    }
    expect(new Set(events.map((e) => e.event_id)).size).toBe(6);
    expect(result.stderr).toMatch(new RegExp(`latest requests.status_changed ${rideId}: completed`));

    // What the app received is what the sandbox sent: same bytes, same signature and environment.
    expect(app.received).toHaveLength(6);
    const [earlier, ...lines] = fs.readFileSync(save, 'utf8').trim().split('\n');
    expect(earlier).toBe(cut);
    const saved = lines.map((l) => JSON.parse(l));
    expect(saved).toHaveLength(6);
    app.received.forEach((got, i) => {
      const original = Buffer.from(saved[i].body_base64, 'base64');
      expect(got.body.equals(original)).toBe(true);
      expect(got.header('X-Platform-Signature')).toBe(sign(original, SANDBOX_DEMO_CLIENT_SECRET));
      expect(got.header('X-Environment')).toBe('sandbox');
      expect(got.header('User-Agent')).toBe('platform-sandbox');
      expect(saved[i].headers).toContainEqual(['X-Platform-Signature', got.header('X-Platform-Signature')]);
    });
    const receipt = JSON.parse(app.received[5]!.body.toString());
    expect(receipt).toMatchObject({
      event_type: 'requests.receipt_ready',
      meta: { resource_id: rideId, resource_type: 'request_receipt', status: 'ready' },
      // The sandbox's own address (tests reach it through the contract gate's proxy).
      resource_href: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:\\d+/v1\\.2/requests/${rideId}/receipts$`)) as string,
    });
    // resource_href points at the sandbox: GET it for the whole resource.
    expect((await api(sandbox.url, token, 'GET', new URL(receipt.resource_href).pathname)).body.request_id).toBe(rideId);
  });

  it('with scope all_trips also delivers all_trips.status_changed; --events filters what is shown and forwarded', async () => {
    const app = await receiver();
    const sandbox = await fastSandbox();
    const listener = await listen(sandbox, cleanup, ['--events', 'all_trips.status_changed', '--forward-to', app.url]);
    sandbox.webhooks.setUrl(SANDBOX_DEMO_CLIENT_ID, listener.url);
    const token = await userToken(sandbox.url, 'profile request all_trips');
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    await waitFor(() => app.received.length >= 5, { what: 'five forwarded deliveries', state: () => app.received.length });
    await listener.stop();
    expect(listener.events().map((e) => `${e.event_type} ${e.status}`)).toEqual(
      ['processing', 'accepted', 'arriving', 'in_progress', 'completed'].map((s) => `all_trips.status_changed ${s}`),
    );
    const sent = sandbox.webhooks.attempts.map((a) => a.event_type);
    expect(sent.filter((t) => t === 'requests.status_changed')).toHaveLength(5);
    expect(sent.filter((t) => t === 'all_trips.status_changed')).toHaveLength(5);
  });

  it('with chaos (duplicates and out of order) the listener ignores repeats and still ends on completed', async () => {
    const app = await receiver();
    const sandbox = await fastSandbox({ webhookChaos: { duplicates: 0.5, reorder: 0.5 }, seed: 7 });
    const listener = await listen(sandbox, cleanup, ['--forward-to', app.url]);
    sandbox.webhooks.setUrl(SANDBOX_DEMO_CLIENT_ID, listener.url);
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    const rides: string[] = [];
    for (let i = 0; i < 3; i++) {
      rides.push(await rideToCompletion(sandbox, token));
      await sandbox.webhooks.idle();
    }
    const sent = sandbox.webhooks.attempts.length;
    await waitFor(() => app.received.length >= 18, { what: 'the unique deliveries forwarded', state: () => app.received.length });
    const result = await listener.stop();
    const events = listener.events();
    expect(events).toHaveLength(sent);
    expect(events.every((e) => e.valid)).toBe(true);
    // Chaos really happened: repeats and older statuses after newer ones.
    expect(events.filter((e) => e.duplicate).length).toBeGreaterThan(0);
    expect(events.filter((e) => e.out_of_order).length).toBeGreaterThan(0);
    // Each (type, ride, status) counted once; duplicates are not forwarded.
    expect(app.received).toHaveLength(18);
    expect(events.filter((e) => !e.duplicate)).toHaveLength(18);
    for (const ride of rides) {
      expect(result.stderr).toContain(`latest requests.status_changed ${ride}: completed`);
      const last = events.filter((e) => e.resource_id === ride && e.event_type === 'requests.status_changed').at(-1)!;
      expect(last.latest).toBe('completed');
    }
  });

  it("retries a receiver answering 500 on the simulated clock, and sets one app's URL through the control route", async () => {
    const app = await startReceiver((n) => (n <= 2 ? 500 : 200));
    cleanup.push(() => app.close());
    const sandbox = await fastSandbox();
    const put = await api(sandbox.url, undefined, 'PUT', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook`, { webhook_url: app.url });
    expect(put.status).toBe(204);
    expect((await api(sandbox.url, undefined, 'GET', `/v1.2/sandbox/applications/${SANDBOX_DEMO_CLIENT_ID}/webhook`)).body).toEqual({
      client_id: SANDBOX_DEMO_CLIENT_ID,
      webhook_url: app.url,
      authentication: { type: 'none' },
    });
    expect((await api(sandbox.url, undefined, 'PUT', '/v1.2/sandbox/applications/nobody/webhook', { webhook_url: app.url })).status).toBe(404);
    const token = await userToken(sandbox.url, 'profile request request_receipt');
    await rideToCompletion(sandbox, token);
    await sandbox.webhooks.idle();
    const first = sandbox.webhooks.attempts.filter((a) => a.status === 'processing');
    expect(first.map((a) => [a.attempt, a.result])).toEqual([
      [1, { status: 500 }],
      [2, { status: 500 }],
      [3, { status: 200 }],
    ]);
    expect(sandbox.webhooks.attempts.filter((a) => a.status !== 'processing').every((a) => a.attempt === 1)).toBe(true);
    // Every event arrived once accepted, the first after its two refusals, in order.
    expect(app.received.slice(2).map((r) => JSON.parse(r.body.toString()).meta.status)).toEqual([
      'processing',
      'accepted',
      'arriving',
      'in_progress',
      'completed',
      'ready',
    ]);
  });
});
