// undici's Agent and request(), loaded without the package's index: the index also builds
// fetch, WebSocket, caches and more (and wakes Node's own bundled undici), about 70 ms of
// start-up that a CLI call never uses.
import Agent from 'undici/lib/dispatcher/agent.js';
import requestOn from 'undici/lib/api/api-request.js';
import type { Dispatcher } from 'undici';

export type { Dispatcher };

const AGENT_OPTIONS = { keepAliveTimeout: 10_000, connections: 32 };

/** The proxy settings of an environment, as curl and most tools read them (lower case first). */
export interface ProxySettings {
  httpProxy: string;
  httpsProxy: string;
  noProxy: string;
}

export function proxySettings(env: Readonly<Record<string, string | undefined>>): ProxySettings | undefined {
  const httpProxy = env.http_proxy ?? env.HTTP_PROXY ?? '';
  const httpsProxy = env.https_proxy ?? env.HTTPS_PROXY ?? '';
  if (!httpProxy && !httpsProxy) return undefined;
  return { httpProxy, httpsProxy, noProxy: env.no_proxy ?? env.NO_PROXY ?? '' };
}

/**
 * The default transport: keep-alive connections, enough for concurrent batches; through
 * HTTP(S)_PROXY, minus NO_PROXY, when the environment names a proxy (undici's
 * EnvHttpProxyAgent, loaded only then).
 */
export async function createAgent(proxy?: ProxySettings): Promise<Dispatcher> {
  if (!proxy) return new Agent(AGENT_OPTIONS);
  const { default: EnvHttpProxyAgent } = await import('undici/lib/dispatcher/env-http-proxy-agent.js');
  // Plain-HTTP targets go as absolute-form requests (as curl sends them); HTTPS ones tunnel with CONNECT.
  return new EnvHttpProxyAgent({ ...AGENT_OPTIONS, ...proxy, proxyTunnel: false });
}

/** The proxy a request to `url` goes through, for messages (undefined: direct). */
export function proxyFor(url: string, proxy: ProxySettings | undefined): string | undefined {
  if (!proxy) return undefined;
  const { protocol, hostname } = new URL(url);
  const bypass = proxy.noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => entry === '*' || hostname === entry.replace(/^\./, '') || hostname.endsWith(entry.startsWith('.') ? entry : `.${entry}`));
  if (bypass) return undefined;
  return (protocol === 'https:' ? proxy.httpsProxy || proxy.httpProxy : proxy.httpProxy) || undefined;
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, options)` on a given dispatcher. */
export function request(dispatcher: Dispatcher, url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  return requestOn.call(dispatcher, { ...options, origin, path: pathname + search });
}
