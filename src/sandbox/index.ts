// The local emulator of the ads API and its token endpoint: startSandbox().
import type { AddressInfo } from 'node:net';
import { TOKEN_REQUESTS_PER_HOUR } from '../schemas/oauth.js';
import { SANDBOX_DEFAULT_HOST, SANDBOX_DEFAULT_PORT, SANDBOX_DEFAULT_SEED } from '../schemas/sandbox.js';
import { registerAdsRoutes } from './ads-routes.js';
import type { Faults, SandboxContext, SandboxStats } from './context.js';
import { json } from './http.js';
import { registerAuthorizeRoutes } from './authorize.js';
import { registerMeRoutes } from './me.js';
import { registerOAuthRoutes } from './oauth.js';
import { registerProductRoutes } from './products.js';
import { startReporting, type DownloadRequest } from './reporting/index.js';
import { registerRiderRoutes, type RiderSandbox } from './rider/index.js';
import { Router } from './router.js';
import { seedData } from './seed.js';
import { createSandboxServer } from './server.js';
import { DataStore, loadState, Persister } from './store.js';
import { findClient, SANDBOX_CLIENTS } from './clients.js';
import { randomBytes } from 'node:crypto';
import { Chaos } from './chaos.js';
import { RequestFeed } from './console/feed.js';
import { registerConsoleRoutes, SECURITY_HEADERS } from './console/routes.js';
import { sandboxHosts } from './protocol.js';
import { SnapshotShelf } from './console/snapshots.js';
import type { FaultRule } from './fault-rules.js';
import { SandboxWebhooks, type WebhookChaos } from './webhooks/index.js';
import { registerWebhookRoutes } from './webhooks/routes.js';
import type { DeliveryAuth } from '../webhooks/delivery-auth.js';

export interface SandboxOptions {
  host?: string;
  port?: number;
  /**
   * The URL other machines reach this sandbox at (`sandbox serve --public-url`): its url, the
   * host of report download URLs and of webhook resource links. Default: the address listened on.
   */
  publicUrl?: string;
  seed?: number;
  campaigns?: number;
  statePath?: string;
  failRate?: number;
  itemFailRate?: number;
  throttleRate?: number;
  rateLimit?: number;
  latencyMs?: number;
  /** Targeted faults (--fault), tried in order before the global rates. */
  faultRules?: FaultRule[];
  /**
   * Seeds every injected fault (--chaos-seed; default: the data seed), so that the Nth
   * request to a route meets the same faults in every run (chaos.ts).
   */
  chaosSeed?: number;
  /** Rider trips and report jobs run this many times faster than the wall clock (--time-scale). */
  timeScale?: number;
  tokenRequestsPerHour?: number;
  /** Where ride events are delivered (spec 6) unless the application has its own URL. */
  webhookUrl?: string;
  /** Per-application webhook URLs (client id -> URL). */
  webhookUrls?: Record<string, string>;
  /** How deliveries authenticate to the receiver (spec 6.3 rule 5), every application's unless set apart. */
  webhookAuth?: DeliveryAuth;
  /** Duplicate and out-of-order deliveries (spec 6.3.1), as shares of events. */
  webhookChaos?: WebhookChaos;
  now?: () => number;
  /** Waits of injected latency (--latency); tests pass one that records them. */
  sleep?: (ms: number) => Promise<void>;
  log?: (line: string) => void;
  /** Tests' own dice: every fault decision draws from it in call order (no seeded chaos). */
  random?: () => number;
}

export interface Sandbox {
  url: string;
  port: number;
  /** Origin of report download URLs: a second server on its own port, closed with the sandbox. */
  downloadUrl: string;
  /** Requests the download origin received (method, path, headers), oldest first. */
  downloadRequests: DownloadRequest[];
  stats: SandboxStats;
  /** The rider API's state, trip clock and ride status hook (onRideStatusChange). */
  rider: RiderSandbox;
  /** Webhook deliveries: per-application URLs, the attempts made, idle(). */
  webhooks: SandboxWebhooks;
  setFaults(faults: { failRate?: number; throttleRate?: number; itemFailRate?: number; rateLimit?: number; latencyMs?: number }): void;
  revokeTokens(): void;
  resetStats(): void;
  /** Named snapshots of the whole state, and reset (also at /_sandbox/snapshots, /_sandbox/reset). */
  snapshots: SnapshotShelf;
  /** The console's CSRF token (X-Sandbox-Token on /_sandbox state changes). */
  consoleToken: string;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const loaded = options.statePath ? loadState(options.statePath) : undefined;
  const seed = options.seed ?? SANDBOX_DEFAULT_SEED;
  const seeded = () => seedData({ seed, campaigns: options.campaigns });
  const store = new DataStore(loaded ?? seeded());
  // What the state does not keep (report jobs) is numbered per run.
  const restartRunIds = () => store.runIds.load({ seed: `${seed}/run`, next: 0 });
  restartRunIds();
  const persister = new Persister(options.statePath, store);
  if (!loaded) persister.changed();
  const faults: Faults = {
    failRate: options.failRate ?? 0,
    itemFailRate: options.itemFailRate ?? 0,
    throttleRate: options.throttleRate ?? 0,
    rateLimit: options.rateLimit,
    latencyMs: options.latencyMs ?? 0,
    rules: options.faultRules ?? [],
  };
  const chaos = new Chaos(options.chaosSeed ?? options.seed ?? SANDBOX_DEFAULT_SEED, options.random);
  const stats: SandboxStats = { apiRequests: 0, tokenRequests: 0, writesById: new Map(), requests: [] };
  const ctx: SandboxContext = {
    store,
    persister,
    now: options.now ?? Date.now,
    sleep: options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms))),
    chaos,
    stats,
    faults,
    tokenRequestsPerHour: options.tokenRequestsPerHour ?? TOKEN_REQUESTS_PER_HOUR,
    rateWindows: new Map(),
  };

  const router = new Router();
  registerOAuthRoutes(router, ctx);
  registerAuthorizeRoutes(router, ctx);
  registerMeRoutes(router, ctx);
  registerAdsRoutes(router, ctx);
  registerProductRoutes(router, ctx);
  const rider = registerRiderRoutes(router, ctx, { timeScale: options.timeScale });
  const host = options.host ?? SANDBOX_DEFAULT_HOST;
  const publicUrl = options.publicUrl?.replace(/\/+$/, '');
  // Every route of both servers (API, token endpoint, console, downloads) answers these names only.
  const hosts = sandboxHosts(host, publicUrl);
  const reporting = await startReporting(router, ctx, {
    host,
    publicHost: publicUrl ? new URL(publicUrl).hostname : undefined,
    hosts,
    timeScale: rider.timeScale,
  });
  let baseUrl = '';
  const webhooks = new SandboxWebhooks({
    defaultUrl: options.webhookUrl,
    urls: { ...Object.fromEntries(SANDBOX_CLIENTS.flatMap((c) => (c.webhook_url ? [[c.client_id, c.webhook_url]] : []))), ...options.webhookUrls },
    chaos: options.webhookChaos,
    defaultAuth: options.webhookAuth,
    timeScale: rider.timeScale,
    // Duplicates and reordering repeat per chaos seed (one stream for webhooks' decisions).
    draw: (kind, key) => chaos.keyed(`webhook ${kind}`, key),
    baseUrl: () => baseUrl,
    secretOf: (clientId) => findClient(clientId)?.client_secret,
    granted: (userId, clientId, scope) => [...store.tokens.values()].some((t) => t.user_id === userId && t.client_id === clientId && t.scopes.includes(scope)),
    log: options.log,
    now: options.now,
  });
  rider.onRideStatusChange((change) => webhooks.onRideStatusChange(change));
  registerWebhookRoutes(router, webhooks, (clientId) => findClient(clientId) !== undefined);
  router.get('/_sandbox/stats', () =>
    json(200, { apiRequests: stats.apiRequests, tokenRequests: stats.tokenRequests, writes: Object.fromEntries(stats.writesById) }),
  );

  const feed = new RequestFeed(() => stats.requests);
  const consoleToken = randomBytes(24).toString('base64url');
  // The seeded state a reset goes back to: frozen now when the sandbox starts from it (the
  // store shares it until written), else made at the first reset.
  let seededState = loaded ? undefined : store.freeze();
  const snapshots = new SnapshotShelf({
    dir: options.statePath ? `${options.statePath}.snapshots` : undefined,
    freeze: () => store.freeze(),
    thaw: (frozen) => {
      store.thaw(frozen);
      rider.load(frozen.rider);
      persister.changed();
    },
    load: (data) => {
      store.load(data);
      rider.load(data.rider);
      persister.changed();
    },
    fresh: () => {
      if (!seededState) {
        store.load(seeded());
        rider.load(undefined);
        seededState = store.freeze();
      }
      return seededState;
    },
    // As a fresh sandbox: its run's ids and webhook event numbering start again too.
    restartRun: () => {
      restartRunIds();
      webhooks.restart();
    },
    now: ctx.now,
  });
  registerConsoleRoutes(router, { ctx, token: consoleToken, shelf: snapshots, webhooks, replaced: (what) => feed.stateReplaced(what) });
  const server = createSandboxServer(router, ctx, {
    log: options.log,
    onRequest: (entry) => feed.request(entry),
    hosts,
    stream: (method, path, _req, res) => {
      if (method !== 'GET' || path !== '/_sandbox/events') return false;
      feed.open(res, SECURITY_HEADERS);
      return true;
    },
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? SANDBOX_DEFAULT_PORT, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    rider.close();
    webhooks.close();
    await reporting.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  baseUrl = publicUrl ?? `http://${urlHost}:${port}`;
  let closed: Promise<void> | undefined;

  return {
    url: baseUrl,
    port,
    downloadUrl: reporting.downloadUrl,
    downloadRequests: reporting.downloadRequests,
    stats,
    rider,
    webhooks,
    setFaults(next) {
      for (const key of ['failRate', 'throttleRate', 'itemFailRate', 'rateLimit', 'latencyMs'] as const) {
        if (key in next) (faults as unknown as Record<string, number | undefined>)[key] = next[key];
      }
      faults.failRate ??= 0;
      faults.itemFailRate ??= 0;
      faults.throttleRate ??= 0;
      faults.latencyMs ??= 0;
    },
    revokeTokens() {
      store.tokens.clear();
      persister.changed();
    },
    resetStats() {
      stats.apiRequests = 0;
      stats.tokenRequests = 0;
      stats.writesById.clear();
      stats.requests.length = 0;
    },
    snapshots,
    consoleToken,
    close() {
      if (closed) return closed;
      rider.close();
      webhooks.close();
      const api = new Promise<void>((resolve, reject) => {
        server.close((error) => {
          try {
            persister.flush();
          } catch (saveError) {
            return reject(saveError instanceof Error ? saveError : new Error(String(saveError)));
          }
          if (error) reject(error);
          else resolve();
        });
        server.closeAllConnections();
      });
      closed = Promise.all([api, reporting.close()]).then(() => undefined);
      return closed;
    },
  };
}
