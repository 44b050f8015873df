// `webhooks trigger` and `webhooks replay` go through HTTPS_PROXY/HTTP_PROXY/NO_PROXY and trust
// --ca-file, PLATFORM_CA_FILE and the profile's ca_file, as every API call does: the receiver
// is an HTTPS server signed by a throwaway CA, at a name only the forward proxy resolves
// (test/helpers/tls-proxy.ts). Before, trigger went direct and said ENOTFOUND.
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sign } from '../../src/webhooks/hmac.js';
import { fastClock, sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';
import { systemTool } from '../helpers/system-tools.js';
import { FRONT_HOST, makeTestCa, startForwardProxy, type ForwardProxy, type TestCa } from '../helpers/tls-proxy.js';
import { scaled } from '../helpers/time-scale.js';

const openssl = systemTool('openssl');
const SECRET = 'the-webhook-secret';

interface Received {
  path: string;
  body: string;
  signature: string | undefined;
}

interface Receiver {
  port: number;
  received: Received[];
  close(): Promise<void>;
}

/** A receiver that answers 200 to every POST and keeps what it got. */
async function startReceiver(tls?: TestCa): Promise<Receiver> {
  const received: Received[] = [];
  const handle = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        path: req.url ?? '',
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-platform-signature'] as string | undefined,
      });
      res.writeHead(200).end();
    });
  };
  const server = tls ? https.createServer({ key: tls.key, cert: tls.cert }, handle) : http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    received,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let sandbox: Sandbox;
let ca: TestCa;
let proxy: ForwardProxy;
let secure: Receiver;
let plain: Receiver;
let dir: string;

beforeAll(async () => {
  if (!openssl.present) return;
  dir = tempDir('platform-proxy-webhooks-');
  ca = makeTestCa(dir);
  [sandbox, proxy, secure, plain] = await Promise.all([sandboxOnFreePort(), startForwardProxy(), startReceiver(ca), startReceiver()]);
}, scaled(60_000));
afterAll(async () => {
  if (!openssl.present) return;
  await Promise.all([sandbox.close(), proxy.close(), secure.close(), plain.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const user = (env: Record<string, string> = {}) => new TestUser(sandbox, { PLATFORM_WEBHOOK_SECRET: SECRET, ...env });
const secureUrl = () => `https://${FRONT_HOST}:${secure.port}/hook`;
const plainUrl = () => `http://${FRONT_HOST}:${plain.port}/hook`;
const trigger = (to: string, ...flags: string[]) => [
  'webhooks',
  'trigger',
  'requests.status_changed',
  '--to',
  to,
  '--max-attempts',
  '1',
  '-o',
  'json',
  ...flags,
];

interface Outcome {
  delivered: boolean;
  outcome: string;
  attempts: number;
}

/** The last delivery `receiver` got: its body signed with the secret. */
function lastSigned(receiver: Receiver): Received {
  const last = receiver.received.at(-1)!;
  expect(last.signature).toBe(sign(Buffer.from(last.body), SECRET));
  return last;
}

describe.skipIf(!openssl.present)(`webhooks trigger and replay through a proxy${openssl.skipNote}`, () => {
  it('trigger to https://NAME through HTTPS_PROXY (a CONNECT tunnel), trusting --ca-file: delivered, signed', async () => {
    const tunnels = proxy.tunnels().length;
    const result = await user({ HTTPS_PROXY: proxy.url }).run([...trigger(secureUrl()), '--ca-file', ca.caFile]);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ delivered: true, outcome: 'HTTP 200', attempts: 1 });
    expect(
      proxy
        .tunnels()
        .slice(tunnels)
        .map((e) => e.target),
    ).toEqual([`${FRONT_HOST}:${secure.port}`]);
    expect(JSON.parse(lastSigned(secure).body)).toMatchObject({ event_type: 'requests.status_changed' });
  });

  it('PLATFORM_CA_FILE and the profile`s ca_file are trusted as --ca-file is; without any the certificate is refused', async () => {
    const fromEnv = await user({ HTTPS_PROXY: proxy.url, PLATFORM_CA_FILE: ca.caFile }).run(trigger(secureUrl()));
    expect(fromEnv.code, fromEnv.stderr).toBe(0);

    const profiled = user({ HTTPS_PROXY: proxy.url });
    expect((await profiled.run(['config', 'set', 'ca_file', ca.caFile])).code).toBe(0);
    const fromProfile = await profiled.run(trigger(secureUrl()));
    expect(fromProfile.code, fromProfile.stderr).toBe(0);

    const untrusted = await user({ HTTPS_PROXY: proxy.url }).run(trigger(secureUrl()));
    expect(untrusted.code).toBe(1);
    expect((JSON.parse(untrusted.stdout) as Outcome).outcome).toMatch(/CERT|SIGNATURE|ISSUER/);
  });

  it('without the proxy the name does not resolve here: what trigger did before, whatever HTTPS_PROXY said', async () => {
    const direct = await user().run([...trigger(secureUrl()), '--ca-file', ca.caFile]);
    expect(direct.code).toBe(1);
    expect(JSON.parse(direct.stdout)).toMatchObject({ delivered: false, outcome: expect.stringMatching(/^(ENOTFOUND|EAI_AGAIN)$/) });
  });

  it('replay to http://NAME through HTTP_PROXY (an absolute-form request); NO_PROXY sends it directly', async () => {
    const seen = proxy.log.length;
    const event = JSON.stringify({ event_id: 'e-proxy', event_type: 'requests.status_changed', event_time: 1, meta: {}, resource_href: 'x' });
    const replayed = await user({ HTTP_PROXY: proxy.url }).run(['webhooks', 'replay', '--to', plainUrl(), '--max-attempts', '1', '-o', 'json', '-'], {
      stdin: event,
    });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(proxy.log.slice(seen).map((e) => [e.method, e.target])).toEqual([['POST', plainUrl()]]);
    expect(lastSigned(plain).body).toBe(event);

    const direct = `http://127.0.0.1:${plain.port}/hook`;
    const bypassed = await user({ HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' }).run(trigger(direct));
    expect(bypassed.code, bypassed.stderr).toBe(0);
    expect(proxy.log.length).toBe(seen + 1);
    expect(plain.received.at(-1)?.path).toBe('/hook');
  });

  it('a proxy that refuses the connection: not delivered at once (no retry), the outcome names the proxy and where it came from', async () => {
    const dead = await startReceiver();
    const deadProxy = `http://127.0.0.1:${dead.port}`;
    await dead.close();
    const clock = fastClock();
    // The default three attempts: none but the first is made.
    const args = ['webhooks', 'trigger', 'requests.status_changed', '--to', secureUrl(), '--ca-file', ca.caFile, '-o', 'json'];
    const result = await user({ HTTPS_PROXY: deadProxy }).run(args, { clock });
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({
      delivered: false,
      verdict: 'not delivered',
      outcome: `the proxy refused the connection (ECONNREFUSED) (proxy ${deadProxy} from HTTPS_PROXY)`,
      attempts: 1,
    });
    expect(clock.slept).toEqual([]);
  });
});
