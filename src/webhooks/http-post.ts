// One POST of exact bytes with exact headers. Resolves with the status, or with why the URL
// could not be reached. Over node:http(s) (no fetch: it would add headers of its own), or,
// when the command gives one, through the HTTP transport (http/transport.ts): the proxies of
// HTTPS_PROXY/HTTP_PROXY/NO_PROXY and the CA of --ca-file, as every API call uses them.
import http from 'node:http';
import https from 'node:https';
import type { SendResult } from './delivery.js';
import type { HttpTransport } from '../http/transport.js';
import { proxyFor } from '../http/proxy-env.js';
import { describeConnectionFailure } from '../http/connection-failure.js';
import { connectionErrorCode } from '../http/retry.js';

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
  /** Send through these proxies and CAs; absent: directly over node:http(s) (the sandbox's own deliveries, listen's forwards). */
  transport?: HttpTransport;
}

export function postOnce(url: string, body: Uint8Array, headers: Array<[string, string]>, options: PostOptions = {}): Promise<SendResult> {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return Promise.resolve({ error: `not a URL: ${url}` });
  }
  // With headers as a flat list nothing is added: Host comes first, as usual.
  const flat: string[] = ['Host', target.host];
  for (const [name, value] of endToEnd(headers)) flat.push(name, value);
  flat.push('Content-Length', String(body.byteLength), 'Connection', 'close');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (options.transport) return postThrough(options.transport, target, body, flat, timeoutMs, options.signal);
  return new Promise((resolve) => {
    const lib = target.protocol === 'https:' ? https : http;
    let settled = false;
    const done = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const req = lib.request(target, { method: 'POST', headers: flat, signal: options.signal });
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

/** The POST through the transport's dispatcher; a failure through a proxy names the proxy. */
async function postThrough(
  transport: HttpTransport,
  target: URL,
  body: Uint8Array,
  headers: string[],
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<SendResult> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => controller.abort(signal?.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const answer = await transport.dispatcher.request({
      origin: target.origin,
      path: target.pathname + target.search,
      method: 'POST',
      headers,
      body,
      signal: controller.signal,
    });
    await answer.body.dump();
    return { status: answer.statusCode };
  } catch (error) {
    if (timedOut) return { error: `no answer within ${timeoutMs / 1000} s` };
    const proxy = proxyFor(target.href, transport.proxy);
    if (signal?.aborted) return { error: connectionErrorCode(error) };
    // A refusing proxy or a name that does not resolve: not retried (retry.ts). A refused
    // receiver is, even on this machine: an app that is starting (spec 6.3.3 retries it).
    const final = connectionErrorCode(error) === 'ENOTFOUND' || (proxy !== undefined && connectionErrorCode(error) === 'ECONNREFUSED');
    const why = proxy ? `${describeConnectionFailure(error, true)} (proxy ${proxy.origin} from ${proxy.variable})` : connectionErrorCode(error);
    return final ? { error: why, final: true } : { error: why };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', onAbort);
  }
}
