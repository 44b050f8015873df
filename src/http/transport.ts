// The one dispatcher every call goes through (API areas, the token endpoint, report
// downloads): keep-alive connections, the environment's proxies (proxy-env.ts) and an
// optional extra CA (ca-bundle.ts). Undici's dispatchers and request() are loaded from their
// own modules: the package's entry point also builds fetch, WebSockets, EventSource, its
// cache and mocks, which no command uses and which took ~35 ms of every API command's start.
import type { SecureContext } from 'node:tls';
import Agent from 'undici/lib/dispatcher/agent.js';
import Dispatcher from 'undici/lib/dispatcher/dispatcher.js';
import ProxyAgent from 'undici/lib/dispatcher/proxy-agent.js';
import dispatcherApi from 'undici/lib/api/index.js';
import { proxyFor, type Proxy, type ProxySettings } from './proxy-env.js';

// What the entry point does first, and all of it these dispatchers need: request(), and
// connect(), with which a ProxyAgent opens its CONNECT tunnels. (Undici's own classes, so
// every copy of the entry point would do the same; it is not this module's state.)
Object.assign(Dispatcher.prototype, dispatcherApi);

export { Dispatcher };

const AGENT_OPTIONS = { keepAliveTimeout: 10_000, connections: 32 };

export interface TransportOptions {
  /** From proxySettings(env); undefined: every call goes direct. */
  proxy?: ProxySettings;
  /** Trusted CAs instead of Node's defaults (trustingCaFile); undefined: Node's defaults. */
  secureContext?: SecureContext;
}

/** The dispatcher for these settings: direct, or through the proxy each target's scheme names. */
export function createTransport({ proxy, secureContext }: TransportOptions): Dispatcher {
  const tls = secureContext ? { secureContext } : undefined;
  const direct = new Agent({ ...AGENT_OPTIONS, connect: tls });
  if (!proxy?.http && !proxy?.https) return direct;
  // One ProxyAgent per proxy (ALL_PROXY serves both schemes). HTTP targets go as absolute-form
  // requests, as curl sends them (proxyTunnel: false); HTTPS ones through a CONNECT tunnel,
  // TLS end to end with the target. An https:// proxy is verified with the same CAs.
  const agents = new Map<string, ProxyAgent>();
  const agentOf = (chosen: Proxy): ProxyAgent => {
    const key = `${chosen.origin} ${chosen.authorization ?? ''}`;
    let agent = agents.get(key);
    if (!agent) {
      agent = new ProxyAgent({ ...AGENT_OPTIONS, uri: chosen.origin, token: chosen.authorization, proxyTunnel: false, requestTls: tls, proxyTls: tls });
      agents.set(key, agent);
    }
    return agent;
  };
  return new ProxyRouter(
    (origin) => {
      const chosen = proxyFor(origin, proxy);
      return chosen ? agentOf(chosen) : direct;
    },
    () => [direct, ...agents.values()],
  );
}

/** Sends each request to the dispatcher its origin calls for. */
class ProxyRouter extends Dispatcher {
  readonly #route: (origin: string) => Dispatcher;
  readonly #all: () => Dispatcher[];

  constructor(route: (origin: string) => Dispatcher, all: () => Dispatcher[]) {
    super();
    this.#route = route;
    this.#all = all;
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    return this.#route(String(options.origin)).dispatch(options, handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const closed = Promise.all(this.#all().map((dispatcher) => dispatcher.close())).then(() => undefined);
    if (!callback) return closed;
    void closed.then(callback);
  }

  override destroy(): Promise<void>;
  override destroy(error: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(error: Error | null, callback: () => void): void;
  override destroy(first?: Error | null | (() => void), second?: () => void): Promise<void> | void {
    const error = typeof first === 'function' ? null : (first ?? null);
    const callback = typeof first === 'function' ? first : second;
    const destroyed = Promise.all(this.#all().map((dispatcher) => dispatcher.destroy(error))).then(() => undefined);
    if (!callback) return destroyed;
    void destroyed.then(callback);
  }
}

/**
 * The dispatcher of the environment's proxies and the CA file in effect, with the proxy
 * settings it routes by (named in messages): what a request outside the API client (a webhook
 * delivery of `webhooks trigger` and `replay`) goes through, as every API call does.
 */
export interface HttpTransport {
  dispatcher: Dispatcher;
  proxy?: ProxySettings;
}

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'>;

/** undici's `request(url, options)` on a given dispatcher. */
export function request(dispatcher: Dispatcher, url: string, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  const { origin, pathname, search } = new URL(url);
  return dispatcher.request({ ...options, origin, path: pathname + search });
}
