// What every sandbox handler shares: the data, the clock, stats and settings.
import type { Chaos } from './chaos.js';
import type { FaultRule } from './fault-rules.js';
import type { DataStore, Persister } from './store.js';

export interface Faults {
  failRate: number;
  throttleRate: number;
  /** Share of batch items answered with a transient failure (not applied). */
  itemFailRate: number;
  rateLimit?: number;
  latencyMs: number;
  /** Targeted faults (--fault), tried in order before the global rates. */
  rules: FaultRule[];
}

/** One line of the request log (the console's, and tests'). */
export interface RequestLogEntry {
  /** Numbered from 1 in arrival order of answers. */
  seq: number;
  /** Sandbox clock, milliseconds since the epoch. */
  at: number;
  method: string;
  path: string;
  /** 0 when the connection was dropped. */
  status: number;
  latencyMs: number;
  /** The route's pattern and the request's number on it (API routes only). */
  route?: string;
  n?: number;
  /** What was injected: `500`, `drop`, `429`, `500 (--fault ...)`, `2 items failed`, ... */
  fault?: string;
  userAgent?: string;
}

export interface SandboxStats {
  apiRequests: number;
  tokenRequests: number;
  writesById: Map<string, number>;
  requests: RequestLogEntry[];
}

export interface SandboxContext {
  store: DataStore;
  persister: Persister;
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Every injected fault's draws (seeded by --chaos-seed); see chaos.ts. */
  chaos: Chaos;
  stats: SandboxStats;
  faults: Faults;
  tokenRequestsPerHour: number;
  /** --rate-limit: each token's requests in the last second, over every API route (one limit per token, as its 429 says). */
  rateWindows: Map<string, number[]>;
}

export function countWrite(ctx: SandboxContext, id: string): void {
  ctx.stats.writesById.set(id, (ctx.stats.writesById.get(id) ?? 0) + 1);
}
