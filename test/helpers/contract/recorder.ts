// A recording proxy in front of a test sandbox: every request the CLI sends (its
// User-Agent says platform-cli) and the sandbox's answer are kept for the contract gate.
// Bodies stream through unchanged; a dropped connection is dropped in turn.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'vitest';
import type { Exchange } from './openapi.js';

/** Bodies larger than this are passed through but not recorded. */
const RECORD_LIMIT = 4 * 1024 * 1024;

export interface RecordingProxy {
  url: string;
  close(): Promise<void>;
}

/** Exchanges recorded by the proxies of this test file (one worker, one file). */
export const recorded: Exchange[] = [];

function collect(stream: NodeJS.ReadableStream, into: Buffer[], limit: { left: number }): void {
  stream.on('data', (chunk: Buffer) => {
    if (limit.left >= chunk.length) into.push(chunk);
    limit.left -= chunk.length;
  });
}

export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const server = http.createServer({ keepAlive: true }, (req, res) => {
    const fromCli = (req.headers['user-agent'] ?? '').startsWith('platform-cli/');
    const test = expect.getState().currentTestName ?? '(outside a test)';
    const requestChunks: Buffer[] = [];
    const requestLimit = { left: RECORD_LIMIT };
    if (fromCli) collect(req, requestChunks, requestLimit);
    const upstream = http.request(`${target}${req.url ?? '/'}`, { method: req.method, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.rawHeaders);
      const responseChunks: Buffer[] = [];
      const responseLimit = { left: RECORD_LIMIT };
      if (fromCli) collect(answer, responseChunks, responseLimit);
      answer.pipe(res);
      answer.on('end', () => {
        if (!fromCli) return;
        recorded.push({
          test,
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          requestBody: requestChunks.length && requestLimit.left >= 0 ? Buffer.concat(requestChunks).toString('utf8') : undefined,
          status: answer.statusCode ?? 0,
          responseContentType: answer.headers['content-type'],
          responseBody: responseLimit.left >= 0 ? Buffer.concat(responseChunks).toString('utf8') : undefined,
        });
      });
    });
    upstream.on('error', () => res.socket?.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
