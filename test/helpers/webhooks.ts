// A receiver a test controls (records what reaches it, answers what the test says), and a
// ride driven to its end on a fast sandbox (`webhooks listen` in-process: listen.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../../src/sandbox/index.js';
import { api } from './sandbox.js';
import { waitFor } from './wait.js';

export interface Received {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
  header(name: string): string | undefined;
}

export interface TestReceiver {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

/** `answer(n)` gives the status for the n-th request (1-based); 'hang' never answers. */
export async function startReceiver(answer: (n: number) => number | 'hang' = () => 200): Promise<TestReceiver> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawHeaders = req.rawHeaders;
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders,
        body: Buffer.concat(chunks),
        header: (name) => {
          for (let i = 0; i < rawHeaders.length; i += 2) if (rawHeaders[i]!.toLowerCase() === name.toLowerCase()) return rawHeaders[i + 1];
          return undefined;
        },
      });
      const status = answer(received.length);
      if (status === 'hang') return;
      res.writeHead(status, { 'content-length': '0' }).end();
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

export const START = { start_latitude: 37.7749, start_longitude: -122.4194 };
export const END = { end_latitude: 37.7599, end_longitude: -122.4148 };

/** Requests a ride with a user token and waits (on a fast sandbox) until it is completed. */
export async function rideToCompletion(sandbox: Sandbox, token: string): Promise<string> {
  const products = await api(sandbox.url, token, 'GET', '/v1.2/products?latitude=37.7749&longitude=-122.4194');
  const x = products.body.products.find((p: { product_group: string }) => p.product_group === 'platformx').product_id;
  const est = await api(sandbox.url, token, 'POST', '/v1.2/requests/estimate', { product_id: x, ...START, ...END });
  const created = await api(sandbox.url, token, 'POST', '/v1.2/requests', { product_id: x, fare_id: est.body.price.fare_id, ...START, ...END });
  if (created.status !== 202) throw new Error(`ride request: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.request_id as string;
  let status: unknown;
  await waitFor(
    async () => {
      status = (await api(sandbox.url, token, 'GET', `/v1.2/requests/${id}`)).body.status;
      return status === 'completed';
    },
    { what: `ride ${id} to complete`, state: () => status },
  );
  return id;
}
