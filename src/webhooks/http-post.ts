// One POST of exact bytes with exact headers, over node:http(s) (no fetch: it would add
// headers of its own). Resolves with the status, or with why the URL could not be reached.
import http from 'node:http';
import https from 'node:https';
import type { SendResult } from './delivery.js';

export const DEFAULT_TIMEOUT_MS = 10_000;

/** Headers that belong to one connection and are not forwarded. */
const HOP_BY_HOP = new Set([
  'host',
  'connection',
  'keep-alive',
  'content-length',
  'transfer-encoding',
  'upgrade',
  'proxy-connection',
  'te',
  'trailer',
  'expect',
]);

export function endToEnd(headers: Array<[string, string]>): Array<[string, string]> {
  return headers.filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase()));
}

export interface PostOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

export function postOnce(url: string, body: Uint8Array, headers: Array<[string, string]>, options: PostOptions = {}): Promise<SendResult> {
  return new Promise((resolve) => {
    let target: URL;
    try {
      target = new URL(url);
    } catch {
      return resolve({ error: `not a URL: ${url}` });
    }
    // With headers as a flat list Node adds none of its own: Host comes first, as usual.
    const flat: string[] = ['Host', target.host];
    for (const [name, value] of endToEnd(headers)) flat.push(name, value);
    flat.push('Content-Length', String(body.byteLength), 'Connection', 'close');
    const lib = target.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = lib.request(target, { method: 'POST', headers: flat, signal: options.signal });
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const timer = setTimeout(() => {
      done({ error: `no answer within ${timeoutMs / 1000} s` });
      req.destroy();
    }, timeoutMs);
    req.on('response', (res) => {
      res.resume();
      done({ status: res.statusCode ?? 0 });
    });
    req.on('error', (error: NodeJS.ErrnoException) => done({ error: error.code ?? error.message }));
    req.end(body);
  });
}
