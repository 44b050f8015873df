// What every sandbox handler shares: the data, the clock, stats and settings.
import type { DataStore, Persister } from './store.js';

export interface Faults {
  failRate: number;
  throttleRate: number;
  /** Share of batch items answered with a transient failure (not applied). */
  itemFailRate: number;
  rateLimit?: number;
  latencyMs: number;
}

export interface SandboxStats {
  apiRequests: number;
  tokenRequests: number;
  writesById: Map<string, number>;
  requests: Array<{ method: string; path: string; status: number }>;
}

export interface SandboxContext {
  store: DataStore;
  persister: Persister;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  random: () => number;
  stats: SandboxStats;
  faults: Faults;
  tokenRequestsPerHour: number;
}

export function countWrite(ctx: SandboxContext, id: string): void {
  ctx.stats.writesById.set(id, (ctx.stats.writesById.get(id) ?? 0) + 1);
}
