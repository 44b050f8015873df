// Shared by the inbox tests: a receiver that
// checks signatures as an app would (200 when valid, 401 otherwise), and `webhooks listen
// --inspect` run in-process with its listener and inbox URLs.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { matches } from '../../src/webhooks/hmac.js';
import { startCli, type LiveRun } from './auth.js';
import type { TestUser } from './cli.js';
import type { Received } from './webhooks.js';

export interface CheckingReceiver {
  url: string;
  received: Array<Received & { answered: number }>;
  close(): Promise<void>;
}

/** An app that verifies X-Platform-Signature with `secret`: 200 when it matches, 401 when not. */
export async function checkingReceiver(secret: string): Promise<CheckingReceiver> {
  const received: CheckingReceiver['received'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const rawHeaders = req.rawHeaders;
      const header = (name: string) => {
        for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name.toLowerCase()) return rawHeaders[i + 1];
        return undefined;
      };
      const signature = header('X-Platform-Signature');
      const ok = signature !== undefined && /^[0-9a-f]{64}$/.test(signature) && matches(body, secret, Buffer.from(signature, 'hex'));
      const answered = ok ? 200 : 401;
      received.push({ method: req.method ?? '', url: req.url ?? '', rawHeaders, body, header, answered });
      res.writeHead(answered, { 'content-length': '0' }).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export interface InspectingListener {
  run: LiveRun;
  /** The receiver: where deliveries are POSTed. */
  url: string;
  /** The inbox page. */
  inbox: string;
  stop(): Promise<{ code: number; stdout: string; stderr: string }>;
}

/** `platform webhooks listen --port 0 --inspect --inspect-port 0 ...args` in-process. */
export async function listenInspecting(user: TestUser, args: string[]): Promise<InspectingListener> {
  const controller = new AbortController();
  const run = startCli(user, ['webhooks', 'listen', '--port', '0', '--inspect', '--inspect-port', '0', '-o', 'json', ...args], { signal: controller.signal });
  const [, url] = await run.waitForStderr(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
  const [, inbox] = await run.waitForStderr(/Inbox: (http:\/\/127\.0\.0\.1:\d+\/)/);
  return {
    run,
    url: url!,
    inbox: inbox!,
    stop: () => {
      controller.abort();
      return run.done;
    },
  };
}
