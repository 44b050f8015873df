// The one HTTP core every API area goes through: base URL, bearer token (fetched when
// missing, refreshed once after a 401), retries with back-off for 429/5xx/dropped
// connections, error bodies turned into typed errors, and a redacted --debug trace.
import { randomUUID } from 'node:crypto';
import { request, type Dispatcher } from './transport.js';
import { proxyFor, type ProxySettings } from './proxy-env.js';
import { describeConnectionFailure } from './connection-failure.js';
import type { Clock } from '../base/io.js';
import { ApiError, NetworkError, type LoginNeed } from '../base/errors.js';
import { authErrorFor } from './auth-errors.js';
import type { Redactor } from './redact.js';
import type { Governor } from './governor.js';
import {
  backoffDelay,
  connectionErrorCode,
  DEFAULT_RETRY,
  isConnectionError,
  isFinalConnectionFailure,
  isRetryableStatus,
  parseRetryAfter,
  type RetryPolicy,
} from './retry.js';

export type QueryValue = string | number | boolean | undefined | ReadonlyArray<string>;

export interface HttpRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  /** Path (with leading slash) or absolute URL. */
  path: string;
  query?: Record<string, QueryValue>;
  json?: unknown;
  form?: Record<string, string | undefined>;
  /** A raw body with its own content type (e.g. `platform api --input`). */
  raw?: { body: string | Uint8Array; contentType?: string };
  headers?: Record<string, string>;
  /** Send the profile's bearer token (default true). */
  auth?: boolean;
  /**
   * Writes carry an Idempotency-Key, the same on every attempt, so a retry after a lost
   * response is not applied twice. Defaults to a fresh key for POST/PATCH with auth.
   */
  idempotencyKey?: string | false;
  signal?: AbortSignal;
  /** Overrides the core's retry policy (bulk sends give batches more attempts). */
  retry?: RetryPolicy;
}

export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  text: string;
  body: T;
  /** How many attempts it took (1 = no retry). */
  attempts: number;
  /** An earlier attempt got no answer (the connection dropped): a write may have been applied by it. */
  unanswered?: boolean;
}

/** Supplies bearer tokens; `fresh` forces a new one (after a 401). */
export interface TokenSource {
  token(options?: { fresh?: boolean; signal?: AbortSignal }): Promise<string>;
  /** Which profile and grant the tokens come from, for the error when they are refused. */
  readonly need: LoginNeed;
}

export interface HttpCoreOptions {
  baseUrl: string;
  /** The proxy settings the dispatcher uses, named in connection errors. */
  proxy?: ProxySettings;
  dispatcher: Dispatcher;
  clock: Clock;
  tokens?: TokenSource;
  retry?: RetryPolicy;
  random?: () => number;
  redactor: Redactor;
  /** --debug sink; absent = no trace. */
  trace?: (line: string) => void;
  userAgent: string;
  signal?: AbortSignal;
  /** Paces requests to this host by what its rate limit says (429, Retry-After); absent: unpaced. */
  governor?: Governor;
}

const TRACE_BODY_LIMIT = 2000;

export { createTransport } from './transport.js';

export class HttpCore {
  readonly baseUrl: string;
  readonly governor?: Governor;
  readonly #options: HttpCoreOptions;
  readonly #retry: RetryPolicy;
  readonly #random: () => number;

  constructor(options: HttpCoreOptions) {
    this.#options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.governor = options.governor;
    this.#retry = options.retry ?? DEFAULT_RETRY;
    this.#random = options.random ?? Math.random;
  }

  url(path: string, query?: Record<string, QueryValue>): string {
    const url = new URL(/^https?:\/\//.test(path) ? path : this.baseUrl + path);
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value as readonly string[]) url.searchParams.append(key, item);
      else url.searchParams.set(key, String(value));
    }
    return url.toString();
  }

  /** Sends with retries; resolves with 2xx responses, throws ApiError/AuthError/NetworkError otherwise. */
  async send<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>> {
    const response = await this.sendRaw(req);
    if (response.status >= 200 && response.status < 300) return response as HttpResponse<T>;
    throw this.#errorFor(response, req);
  }

  /** Like send, but hands back any final status instead of throwing on non-2xx (for `platform api`). */
  async sendRaw(req: HttpRequest): Promise<HttpResponse> {
    const useAuth = req.auth !== false && this.#options.tokens !== undefined;
    const writes = req.method === 'POST' || req.method === 'PATCH';
    const idempotencyKey = req.idempotencyKey === false ? undefined : (req.idempotencyKey ?? (useAuth && writes ? randomUUID() : undefined));
    const signal = req.signal ?? this.#options.signal;
    const policy = req.retry ?? this.#retry;
    let refreshed = false;
    let attempt = 0;
    /** An attempt got no answer: the server may have acted on it. */
    let unanswered = false;
    // Encoded once: every attempt sends the same bytes, with the same Idempotency-Key.
    const fixedHeaders: Record<string, string> = { 'user-agent': this.#options.userAgent, accept: 'application/json', ...req.headers };
    if (idempotencyKey) fixedHeaders['idempotency-key'] = idempotencyKey;
    const body = this.#encodeBody(req, fixedHeaders);
    const url = this.url(req.path, req.query);
    for (;;) {
      attempt++;
      const headers = { ...fixedHeaders };
      // The token may change between attempts (a refresh after a 401).
      if (useAuth) headers.authorization = `Bearer ${await this.#options.tokens!.token({ fresh: false, signal })}`;
      let response: HttpResponse;
      // Every attempt takes its turn: a retry is a request to the same quota.
      const ticket = await this.governor?.acquire(signal);
      try {
        response = await this.#once(req.method, url, headers, body, signal);
      } catch (error) {
        // No answer: the governor's count of requests in flight lets it go.
        if (ticket) await this.governor!.observe(ticket, 0);
        if (signal?.aborted) throw signal.reason;
        const proxy = proxyFor(url, this.#options.proxy);
        // A refused loopback port, a proxy that refuses, a name that does not resolve: at once, no retries (retry.ts).
        const final = isConnectionError(error) && isFinalConnectionFailure(error, url, proxy !== undefined);
        if (final) this.#trace(`* ${connectionErrorCode(error)}: not retried (${finalReason(error, proxy !== undefined)})`);
        if (final || !isConnectionError(error) || attempt >= policy.attempts) {
          const via = proxy ? ` through the proxy ${proxy.origin} (from ${proxy.variable}; NO_PROXY lists hosts to reach directly)` : '';
          throw new NetworkError(
            `could not reach ${this.baseUrl}${via}: ${describeConnectionFailure(error, proxy !== undefined)} (${attempt} attempt${attempt === 1 ? '' : 's'})`,
            error,
            proxy ? undefined : this.baseUrl,
          );
        }
        // (refused before the request went out: nothing reached the server)
        if (connectionErrorCode(error) !== 'ECONNREFUSED') unanswered = true;
        await this.#wait(policy, attempt, undefined, signal);
        continue;
      }
      if (ticket) await this.governor!.observe(ticket, response.status, response.headers);
      if (response.status === 401 && useAuth && !refreshed) {
        // A token the server no longer accepts (expired, revoked): get a new one, once.
        refreshed = true;
        this.#trace('* 401: fetching a new token and retrying once');
        await this.#options.tokens!.token({ fresh: true, signal });
        attempt--;
        continue;
      }
      if (isRetryableStatus(response.status) && attempt < policy.attempts) {
        const retryAfter = parseRetryAfter(response.headers['retry-after'], this.#options.clock.now());
        if (retryAfter === undefined || retryAfter <= policy.maxRetryAfterMs) {
          await this.#wait(policy, attempt, retryAfter, signal);
          continue;
        }
      }
      response.attempts = attempt;
      if (unanswered) response.unanswered = true;
      return response;
    }
  }

  #encodeBody(req: HttpRequest, headers: Record<string, string>): string | Uint8Array | undefined {
    if (req.json !== undefined) {
      headers['content-type'] = 'application/json';
      return JSON.stringify(req.json);
    }
    if (req.form) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      const params = new URLSearchParams();
      for (const [key, value] of Object.entries(req.form)) if (value !== undefined) params.set(key, value);
      return params.toString();
    }
    if (req.raw) {
      if (req.raw.contentType) headers['content-type'] = req.raw.contentType;
      return req.raw.body;
    }
    return undefined;
  }

  async #once(
    method: string,
    url: string,
    headers: Record<string, string>,
    body: string | Uint8Array | undefined,
    signal?: AbortSignal,
  ): Promise<HttpResponse> {
    const started = this.#options.clock.now();
    if (this.#options.trace) {
      const proxy = proxyFor(url, this.#options.proxy);
      if (proxy) this.#trace(`* through the proxy ${proxy.origin} (${proxy.variable}${proxy.authorization ? ', with credentials' : ''})`);
      this.#trace(`> ${method} ${this.#options.redactor.text(url)}`);
      for (const [name, value] of Object.entries(headers)) this.#trace(`> ${name}: ${this.#options.redactor.header(name, value)}`);
      if (body !== undefined) this.#trace(`> ${this.#clip(typeof body === 'string' ? body : `<${body.byteLength} bytes>`)}`);
    }
    const res = await request(this.#options.dispatcher, url, { method: method, headers, body, signal });
    const text = await res.body.text();
    const responseHeaders: Record<string, string> = {};
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) responseHeaders[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    if (this.#options.trace) {
      this.#trace(`< ${res.statusCode} (${this.#options.clock.now() - started} ms)`);
      for (const [name, value] of Object.entries(responseHeaders)) this.#trace(`< ${name}: ${this.#options.redactor.header(name, value)}`);
      if (text) this.#trace(`< ${this.#clip(text)}`);
    }
    let parsed: unknown = text;
    if (text && /json/.test(responseHeaders['content-type'] ?? '')) {
      try {
        parsed = JSON.parse(text);
      } catch {
        parsed = text;
      }
    }
    return { status: res.statusCode, headers: responseHeaders, text, body: parsed, attempts: 1 };
  }

  #errorFor(response: HttpResponse, req: HttpRequest): Error {
    const { code, message } = describeErrorBody(response);
    const gaveUp = isRetryableStatus(response.status) && response.attempts > 1 ? `gave up after ${response.attempts} attempts` : '';
    // A write an earlier attempt of which got no answer may have been applied by it, unless the last answer is a
    // refusal (4xx but 429): a server refuses what it applied before only when it knows nothing of the earlier attempt.
    const refusal = response.status >= 400 && response.status < 500 && response.status !== 429;
    const perhaps = response.unanswered && req.method !== 'GET' && !refusal ? 'an earlier attempt got no answer, so it may have been applied' : '';
    const suffix = gaveUp || perhaps ? ` (${[gaveUp, perhaps].filter(Boolean).join('; ')})` : '';
    const authError = req.auth !== false && this.#options.tokens ? authErrorFor(response.status, code, message, this.#options.tokens.need) : undefined;
    return authError ?? new ApiError(response.status, code, message + suffix, response.headers['x-request-id']);
  }

  async #wait(policy: RetryPolicy, attempt: number, retryAfterMs: number | undefined, signal?: AbortSignal): Promise<void> {
    const delay = backoffDelay(policy, attempt, this.#random, retryAfterMs);
    this.#trace(`* retrying in ${delay} ms (attempt ${attempt + 1} of ${policy.attempts})`);
    await this.#options.clock.sleep(delay, signal);
  }

  #clip(text: string): string {
    const redacted = this.#options.redactor.text(text);
    return redacted.length > TRACE_BODY_LIMIT ? `${redacted.slice(0, TRACE_BODY_LIMIT)}... (${redacted.length} chars)` : redacted;
  }

  #trace(line: string): void {
    this.#options.trace?.(line);
  }
}

/** Why a connection failure is not retried, for the --debug trace. */
function finalReason(error: unknown, viaProxy: boolean): string {
  if (connectionErrorCode(error) === 'ENOTFOUND') return 'the name does not exist';
  return viaProxy ? 'the proxy refused the connection' : 'nothing listens on that port of this machine';
}

/** `{code, message}` (ads, rider), `{error, error_description}` (OAuth) or a plain status. */
export function describeErrorBody(response: HttpResponse): { code: string; message: string } {
  const body = response.body as Record<string, unknown> | string;
  if (body && typeof body === 'object') {
    if (typeof body.code === 'string') {
      return {
        code: body.code,
        message: typeof body.message === 'string' ? body.message : typeof body.title === 'string' ? body.title : `HTTP ${response.status}`,
      };
    }
    if (typeof body.error === 'string') {
      return { code: body.error, message: typeof body.error_description === 'string' ? body.error_description : `HTTP ${response.status}` };
    }
    const errors = body.errors as Array<Record<string, unknown>> | undefined;
    if (Array.isArray(errors) && errors[0] && typeof errors[0].code === 'string') {
      return { code: errors[0].code, message: textOf(errors[0].title) ?? textOf(errors[0].message) ?? `HTTP ${response.status}` };
    }
    // RFC 9457 problem details (a gateway in front of the API): its detail, else its title.
    const detail = textOf(body.detail) ?? textOf(body.title);
    if (detail) return { code: `HTTP ${response.status}`, message: detail };
  }
  const snippet = typeof body === 'string' ? body.trim().slice(0, 200) : '';
  return { code: `HTTP ${response.status}`, message: snippet || 'no error details in the response' };
}

const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
