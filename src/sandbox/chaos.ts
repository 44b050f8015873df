// Where every injected fault's dice come from. With a chaos seed (--chaos-seed, else --seed)
// a decision is a pure function of (seed, decision kind, route, n, item): the Nth request to
// a route (method and route pattern, e.g. `POST /v1/ads/{account_id}/campaigns`) meets the
// same faults in every run, whatever other routes are doing at the same time. Webhook chaos
// is keyed the same way, by the event's kind and its number among events of that kind. A request's scope (AsyncLocalStorage, one per
// sandbox) carries its draws into handlers (batch items) and what was injected to the log.
import { AsyncLocalStorage } from 'node:async_hooks';
import { hash32, mulberry32 } from './prng.js';

/** What a request met, for the request log. */
export interface RequestScope {
  /** The route it matched (counted per route), once a faulted handler saw it. */
  route?: string;
  /** Its number among the requests to that route, from 1. */
  n?: number;
  /** The fault injected instead of (or after) the answer, e.g. `500`, `drop`, `429`, `rule 1: 503`. */
  fault?: string;
  /** Batch items failed by injection. */
  itemFailures: number;
  /** Item draws made so far (the index of the next item). */
  items: number;
}

export class Chaos {
  readonly #scopes = new AsyncLocalStorage<RequestScope>();
  readonly #counts = new Map<string, number>();

  /**
   * @param seed the chaos seed
   * @param legacy a caller's own random source (tests): every decision draws from it in
   *   call order, as before seeded chaos existed
   */
  constructor(
    readonly seed: number,
    private readonly legacy?: () => number,
  ) {}

  /** Runs `fn` as one request: its scope collects what was injected. */
  run<T>(fn: () => T): { scope: RequestScope; result: T } {
    const scope: RequestScope = { itemFailures: 0, items: 0 };
    return { scope, result: this.#scopes.run(scope, fn) };
  }

  /** Counts this request against its route; call once per request, before any draw. */
  enter(route: string): void {
    const scope = this.#scopes.getStore();
    if (!scope || scope.route !== undefined) return;
    const n = (this.#counts.get(route) ?? 0) + 1;
    this.#counts.set(route, n);
    scope.route = route;
    scope.n = n;
  }

  /** A draw in [0, 1) for one decision of the current request. */
  draw(kind: string, index = 0): number {
    if (this.legacy) return this.legacy();
    const scope = this.#scopes.getStore();
    return unit(`${this.seed}\n${kind}\n${scope?.route ?? '-'}\n${scope?.n ?? 0}\n${index}`);
  }

  /** Records the fault injected into the current request. */
  injected(fault: string): void {
    const scope = this.#scopes.getStore();
    if (scope) scope.fault = fault;
  }

  /** Whether the current request's next batch item fails (transiently) at this rate. */
  itemFails(rate: number): boolean {
    if (!(rate > 0)) return false;
    const scope = this.#scopes.getStore();
    const index = scope ? scope.items++ : 0;
    const fails = this.draw('item', index) < rate;
    if (fails && scope) scope.itemFailures++;
    return fails;
  }

  /** A draw for a decision made outside requests (a webhook delivery), keyed by what it is about. */
  keyed(kind: string, key: string): number {
    return this.legacy ? this.legacy() : unit(`${this.seed}\n${kind}\n${key}`);
  }

  /** Starts counting requests afresh (a reset: the next request to each route is the 1st again). */
  restart(): void {
    this.#counts.clear();
  }
}

/** One mulberry32 draw from a hashed key. */
function unit(key: string): number {
  return mulberry32(hash32(key))();
}
