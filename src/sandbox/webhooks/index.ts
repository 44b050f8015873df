// Webhook deliveries of the sandbox (spec 6): on every ride status change it sends
// requests.status_changed (and all_trips.status_changed when the user granted the
// application all_trips), and requests.receipt_ready once a ride is completed, to the
// application's webhook URL, signed with its client secret, with X-Environment: sandbox.
// Failed deliveries are retried per spec 6.3.3 on the simulated clock (waits divided by
// --time-scale). Deliveries to one URL go out one at a time, in order, unless chaos asks for
// duplicates and out-of-order deliveries (spec 6.3.1 allows both).
import type { DeliveryLogEntry } from '../../schemas/webhook-log.js';
import type { RideStatusChange } from '../rider/events.js';
import { buildEvent, eventBody, type EventType, type WebhookEvent } from '../../webhooks/events.js';
import { BACKOFF_BASE_SECONDS, MAX_ATTEMPTS, isAuthFailure, type SendResult } from '../../webhooks/delivery.js';
import { DeliveryAuthorizer, type DeliveryAuth } from '../../webhooks/delivery-auth.js';
import { postTokenForm } from '../../webhooks/token-post.js';
import { sendSigned, signedHeaders } from '../../webhooks/send.js';
import { abortReason } from '../../base/io.js';

export interface WebhookChaos {
  /** Share of events delivered twice. */
  duplicates: number;
  /** Share of events held back and delivered after the ride's next event. */
  reorder: number;
}

export interface SandboxWebhookOptions {
  /** Where every application's events go unless it has its own URL (--webhook-url). */
  defaultUrl?: string;
  /** Per-application URLs (client id -> URL). */
  urls?: Record<string, string>;
  /** How every application's deliveries authenticate unless it has its own setting (--webhook-basic-auth, --webhook-oauth-*). */
  defaultAuth?: DeliveryAuth;
  chaos?: WebhookChaos;
  /** Simulated seconds per wall-clock second. */
  timeScale: number;
  /**
   * A draw in [0, 1) for one chaos decision about an event: the same kind and key (the event's
   * type and status, and its number among such events) draw the same in every run of one seed.
   */
  draw: (kind: 'reorder' | 'duplicate', key: string) => number;
  /** The sandbox's base URL, for resource_href. */
  baseUrl: () => string;
  /** The client secret that signs an application's events. */
  secretOf: (clientId: string) => string | undefined;
  /** Whether the user granted the application a scope (all_trips). */
  granted: (userId: string, clientId: string, scope: string) => boolean;
  log?: (line: string) => void;
  /** Seconds to wait for a receiver's answer (wall clock). */
  timeoutMs?: number;
  /** The wall clock the delivery log is stamped with (default Date.now). */
  now?: () => number;
}

/** One attempt, as the sandbox records it (tests and `sandbox serve` logs). */
export interface DeliveryAttempt {
  event_id: string;
  event_type: string;
  resource_id: string;
  status: string;
  url: string;
  attempt: number;
  result: SendResult;
  /** The receiver refused the credentials (401, 403), or none could be made (the token URL failed). */
  auth_failure: boolean;
}

/** Parses --webhook-chaos: "0.3" (both), or "duplicates=0.3,reorder=0.5". */
export function parseChaos(text: string): WebhookChaos | string {
  const chaos: WebhookChaos = { duplicates: 0, reorder: 0 };
  const rate = (v: string) => (/^(0(\.\d+)?|1(\.0+)?)$/.test(v) ? Number(v) : undefined);
  if (rate(text.trim()) !== undefined) return { duplicates: rate(text.trim())!, reorder: rate(text.trim())! };
  for (const part of text.split(',')) {
    const [key, value] = part.split('=').map((s) => s.trim());
    const r = rate(value ?? '');
    if ((key !== 'duplicates' && key !== 'reorder') || r === undefined) {
      return `--webhook-chaos: expected a rate 0-1, or duplicates=RATE,reorder=RATE; not ${JSON.stringify(part)}`;
    }
    chaos[key] = r;
  }
  return chaos;
}

/**
 * One event in the delivery log (`GET /v1.2/sandbox/applications/{id}/webhook/deliveries`):
 * what was sent (headers and body, as a capture line of `webhooks listen --save`) and
 * whether any attempt was accepted, so `webhooks listen --since` can catch up on the missed.
 */
export interface LoggedDelivery extends DeliveryLogEntry {
  client_id: string;
  last_result: SendResult | null;
  /** Attempts that failed on their credentials, apart from other failures. */
  auth_failures: number;
}

/** Events kept in the delivery log, newest kept. */
export const DELIVERY_LOG_SIZE = 1000;

interface Pending {
  event: WebhookEvent;
  clientId: string;
  logged: LoggedDelivery;
}

export class SandboxWebhooks {
  readonly attempts: DeliveryAttempt[] = [];
  /** Every event made, oldest first (at most DELIVERY_LOG_SIZE). */
  readonly log: LoggedDelivery[] = [];
  readonly #urls = new Map<string, string>();
  /** Per-application authentication: a setting of none (null) overrides the default. */
  readonly #auths = new Map<string, DeliveryAuth | null>();
  /** One per application and setting: an OAuth token is kept across deliveries. */
  readonly #authorizers = new Map<string, DeliveryAuthorizer>();
  readonly #queues = new Map<string, Promise<void>>();
  readonly #held = new Map<string, { pending: Pending; timer: NodeJS.Timeout }>();
  readonly #abort = new AbortController();
  #inFlight = 0;
  #idle: Array<() => void> = [];

  constructor(private readonly o: SandboxWebhookOptions) {
    for (const [client, url] of Object.entries(o.urls ?? {})) this.#urls.set(client, url);
  }

  /** Sets (or, with undefined, removes) an application's own webhook URL. */
  setUrl(clientId: string, url: string | undefined): void {
    if (url) this.#urls.set(clientId, url);
    else this.#urls.delete(clientId);
  }

  urlOf(clientId: string): string | undefined {
    return this.#urls.get(clientId) ?? this.o.defaultUrl;
  }

  /** Sets an application's delivery authentication (null: none; undefined: back to the default). */
  setAuth(clientId: string, auth: DeliveryAuth | null | undefined): void {
    if (auth === undefined) this.#auths.delete(clientId);
    else this.#auths.set(clientId, auth);
    this.#authorizers.delete(clientId);
  }

  authOf(clientId: string): DeliveryAuth | undefined {
    const own = this.#auths.get(clientId);
    return own === null ? undefined : (own ?? this.o.defaultAuth);
  }

  /** Tokens fetched from an application's token URL so far (0 without OAuth). */
  tokenFetchesOf(clientId: string): number {
    return this.#authorizers.get(clientId)?.tokenFetches ?? 0;
  }

  #authorizerOf(clientId: string): DeliveryAuthorizer | undefined {
    const auth = this.authOf(clientId);
    if (!auth) return undefined;
    let authorizer = this.#authorizers.get(clientId);
    if (!authorizer) {
      authorizer = new DeliveryAuthorizer(auth, { postForm: postTokenForm(undefined, this.o.timeoutMs), now: this.o.now ?? Date.now });
      this.#authorizers.set(clientId, authorizer);
    }
    return authorizer;
  }

  /** The ride hook: the events one status change produces, in the order they are sent. */
  onRideStatusChange(change: RideStatusChange): void {
    const url = this.urlOf(change.clientId);
    const secret = this.o.secretOf(change.clientId);
    // Logged even without a URL: those are the events a listener started later catches up on.
    if (!url && secret === undefined) return;
    const types: EventType[] = ['requests.status_changed'];
    if (this.o.granted(change.userId, change.clientId, 'all_trips')) types.push('all_trips.status_changed');
    const events = types.map((type) => this.#event(type, change, change.status));
    if (change.status === 'completed') events.push(this.#event('requests.receipt_ready', change, 'ready'));
    for (const event of events) {
      const logged = this.#logEvent(event, change.clientId, url, secret);
      if (url) this.#enqueue({ event, clientId: change.clientId, logged });
    }
  }

  /** The logged events of an application made at or after `sinceMs`, oldest first. */
  deliveriesOf(clientId: string, sinceMs: number): LoggedDelivery[] {
    return this.log.filter((d) => d.client_id === clientId && Date.parse(d.created_at) >= sinceMs);
  }

  #logEvent(event: WebhookEvent, clientId: string, url: string | undefined, secret: string | undefined): LoggedDelivery {
    const body = eventBody(event);
    const logged: LoggedDelivery = {
      client_id: clientId,
      event_id: event.event_id,
      event_type: event.event_type,
      resource_id: event.meta.resource_id,
      status: event.meta.status,
      created_at: new Date((this.o.now ?? Date.now)()).toISOString(),
      url: url ?? null,
      attempts: 0,
      delivered: false,
      last_result: null,
      auth_failures: 0,
      headers: secret === undefined ? [] : signedHeaders(body, secret, 'sandbox', [], 'platform-sandbox'),
      body_base64: body.toString('base64'),
    };
    this.log.push(logged);
    if (this.log.length > DELIVERY_LOG_SIZE) this.log.splice(0, this.log.length - DELIVERY_LOG_SIZE);
    return logged;
  }

  /** Resolves once nothing is queued, held or being retried. */
  idle(): Promise<void> {
    if (this.#inFlight === 0 && this.#held.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#idle.push(resolve));
  }

  close(): void {
    this.#abort.abort(new Error('sandbox closed'));
    for (const { timer } of this.#held.values()) clearTimeout(timer);
    this.#held.clear();
  }

  /**
   * As a fresh sandbox (a reset): the delivery log, the attempts and held events go, and the
   * numbering of events that chaos decisions are keyed by starts again. Deliveries already
   * under way finish.
   */
  restart(): void {
    for (const { timer } of this.#held.values()) clearTimeout(timer);
    this.#held.clear();
    this.#chaosCounts.clear();
    this.#numbered.clear();
    this.log.length = 0;
    this.attempts.length = 0;
    this.#checkIdle();
  }

  #event(type: EventType, change: RideStatusChange, status: string): WebhookEvent {
    return buildEvent({ type, resourceId: change.ride.request_id, status, userId: change.userId, baseUrl: this.o.baseUrl(), now: change.at });
  }

  #enqueue(pending: Pending): void {
    const chaos = this.o.chaos;
    const slot = `${pending.event.event_type}\n${pending.event.meta.resource_id}`;
    const held = this.#held.get(slot);
    if (held) {
      // The held event goes out after this newer one: out of order.
      clearTimeout(held.timer);
      this.#held.delete(slot);
      this.#send(pending);
      this.#send(held.pending);
      return;
    }
    if (chaos && chaos.reorder > 0 && this.o.draw('reorder', this.#chaosKey(pending.event)) < chaos.reorder) {
      // Released by the ride's next event, or after a simulated minute without one.
      const timer = setTimeout(() => {
        this.#held.delete(slot);
        this.#send(pending);
      }, this.#wall(60_000));
      timer.unref();
      this.#held.set(slot, { pending, timer });
      return;
    }
    this.#send(pending);
  }

  readonly #chaosCounts = new Map<string, number>();

  /** The event's kind and its number among events of that kind (counted once per event, at its first decision). */
  #chaosKey(event: WebhookEvent): string {
    const kind = `${event.event_type}\n${event.meta.status}`;
    let n = this.#numbered.get(event.event_id);
    if (n === undefined) {
      n = (this.#chaosCounts.get(kind) ?? 0) + 1;
      this.#chaosCounts.set(kind, n);
      this.#numbered.set(event.event_id, n);
    }
    return `${kind}\n${n}`;
  }

  readonly #numbered = new Map<string, number>();

  #send(pending: Pending): void {
    const key = this.#chaosKey(pending.event);
    // Its last decision: the number is not needed any more.
    this.#numbered.delete(pending.event.event_id);
    const copies = this.o.chaos && this.o.chaos.duplicates > 0 && this.o.draw('duplicate', key) < this.o.chaos.duplicates ? 2 : 1;
    for (let i = 0; i < copies; i++) this.#deliver(pending);
  }

  #deliver({ event, clientId, logged }: Pending): void {
    const url = this.urlOf(clientId);
    const secret = this.o.secretOf(clientId);
    if (!url || secret === undefined) return;
    this.#inFlight++;
    const previous = this.#queues.get(url) ?? Promise.resolve();
    const next = previous.then(async () => {
      if (this.#abort.signal.aborted) return;
      const result = await sendSigned({
        url,
        body: eventBody(event),
        secret,
        environment: 'sandbox',
        attempts: MAX_ATTEMPTS,
        baseMs: BACKOFF_BASE_SECONDS * 1000,
        timeoutMs: this.o.timeoutMs,
        userAgent: 'platform-sandbox',
        sleep: (ms, signal) => this.#sleep(ms, signal),
        signal: this.#abort.signal,
        authorizer: this.#authorizerOf(clientId),
        retryUnauthorized: true,
        onAttempt: (r) => {
          const authFailure = isAuthFailure(r.result);
          logged.attempts++;
          logged.last_result = r.result;
          if (authFailure) logged.auth_failures++;
          if (r.verdict === 'accepted') logged.delivered = true;
          this.attempts.push({
            event_id: event.event_id,
            event_type: event.event_type,
            resource_id: event.meta.resource_id,
            status: event.meta.status,
            url,
            attempt: r.attempt,
            result: r.result,
            auth_failure: authFailure,
          });
          const outcome = ('status' in r.result ? `HTTP ${r.result.status}` : r.result.error) + (authFailure ? ' (authentication failed)' : '');
          const next = r.retryInMs !== undefined ? `, retry in ${r.retryInMs / 1000} s (simulated)` : '';
          this.o.log?.(
            `webhook ${event.event_type} ${event.meta.status} ${event.meta.resource_id} -> ${url}: ${outcome} (attempt ${r.attempt}/${r.of}${next})`,
          );
        },
      }).catch(() => undefined); // aborted on close
      void result;
    });
    this.#queues.set(url, next);
    void next.finally(() => {
      if (this.#queues.get(url) === next) this.#queues.delete(url);
      this.#inFlight--;
      this.#checkIdle();
    });
  }

  #checkIdle(): void {
    if (this.#inFlight !== 0 || this.#held.size !== 0) return;
    const waiting = this.#idle;
    this.#idle = [];
    for (const resolve of waiting) resolve();
  }

  /** Wall-clock milliseconds of a simulated span. */
  #wall(simulatedMs: number): number {
    return simulatedMs / this.o.timeScale;
  }

  #sleep(simulatedMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      // The listener goes with the wait: every attempt of every delivery sleeps on the sandbox's one signal.
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, this.#wall(simulatedMs));
      timer.unref();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }
}
