// undici's Agent and request(), loaded without the package's index: the index also builds
// fetch, WebSocket, caches and more (and wakes Node's own bundled undici), about 70 ms of
// start-up that a CLI call never uses.
import Agent from 'undici/lib/dispatcher/agent.js';
import requestOn from 'undici/lib/api/api-request.js';
import type { Dispatcher } from 'undici';

export type { Dispatcher };

/** The default transport: keep-alive connections, enough for concurrent batches. */
export function createAgent(): Dispatcher {
  return new Agent({ keepAliveTimeout: 10_000, connections: 32 });
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, options)` on a given dispatcher. */
export function request(dispatcher: Dispatcher, url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  return requestOn.call(dispatcher, { ...options, origin, path: pathname + search });
}
