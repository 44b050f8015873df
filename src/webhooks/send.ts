// Sending one delivery as the platform does: the body signed with the secret, the
// X-Environment header, retried per spec 6.3.3 (delivery.ts).
import { classifyAuthenticated, deliver, type AttemptReport, type SendResult } from './delivery.js';
import { DeliveryAuthError, type DeliveryAuthorizer } from './delivery-auth.js';
import { sign } from './hmac.js';
import { postOnce } from './http-post.js';
import type { HttpTransport } from '../http/transport.js';
import { ENVIRONMENT_HEADER, SIGNATURE_HEADER } from './signature.js';
import { headerValue, isHeader } from './headers.js';

export interface SendOptions {
  url: string;
  body: Buffer;
  /** Headers to keep (e.g. captured ones); signature and environment are replaced. */
  headers?: Array<[string, string]>;
  secret: string;
  environment: string;
  attempts?: number;
  baseMs?: number;
  /** Waits before attempts 2..n (default: spec 6.3.3's schedule from baseMs). */
  waits?: readonly number[];
  timeoutMs?: number;
  userAgent?: string;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onAttempt?: (report: AttemptReport) => void;
  /** The proxies and CA to send through (`webhooks trigger`, `replay`); absent: direct (http-post.ts). */
  transport?: HttpTransport;
  /** How each attempt authenticates to the receiver (spec 6.3 rule 5), when it must. */
  authorizer?: DeliveryAuthorizer;
  /** 401 and 403 are retried like a 500 (the platform's own deliveries), not final. */
  retryUnauthorized?: boolean;
}

export function signedHeaders(
  body: Uint8Array,
  secret: string,
  environment: string,
  keep: Array<[string, string]> = [],
  userAgent = 'platform-cli',
): Array<[string, string]> {
  const headers = keep.filter(([name]) => !isHeader(name, SIGNATURE_HEADER) && !isHeader(name, ENVIRONMENT_HEADER));
  if (headerValue(headers, 'content-type') === undefined) headers.push(['Content-Type', 'application/json']);
  if (headerValue(headers, 'user-agent') === undefined) headers.push(['User-Agent', userAgent]);
  headers.push([ENVIRONMENT_HEADER, environment], [SIGNATURE_HEADER, sign(body, secret)]);
  return headers;
}

export function sendSigned(options: SendOptions) {
  const headers = signedHeaders(options.body, options.secret, options.environment, options.headers, options.userAgent);
  const post = (extra: Array<[string, string]>) =>
    postOnce(options.url, options.body, [...headers, ...extra], { timeoutMs: options.timeoutMs, signal: options.signal, transport: options.transport });
  const attempt = options.authorizer ? () => authenticatedAttempt(options.authorizer!, headers, post, options.signal) : () => post([]);
  return deliver(attempt, {
    attempts: options.attempts,
    baseMs: options.baseMs,
    waits: options.waits,
    sleep: options.sleep,
    signal: options.signal,
    onAttempt: options.onAttempt,
    ...(options.retryUnauthorized ? { classify: classifyAuthenticated } : {}),
  });
}

/** One attempt with an Authorization header; a kept OAuth token the receiver refuses is replaced once, at once. */
async function authenticatedAttempt(
  authorizer: DeliveryAuthorizer,
  headers: Array<[string, string]>,
  post: (extra: Array<[string, string]>) => Promise<SendResult>,
  signal?: AbortSignal,
): Promise<SendResult> {
  // A captured delivery's own Authorization (a replay) gives way to the one made now.
  const own = headers.findIndex(([name]) => isHeader(name, 'authorization'));
  if (own >= 0) headers.splice(own, 1);
  for (let renewed = false; ; renewed = true) {
    let authorization: string;
    try {
      authorization = await authorizer.authorization(signal);
    } catch (error) {
      if (error instanceof DeliveryAuthError) return { error: error.message, auth: true };
      throw error;
    }
    const result = await post([['Authorization', authorization]]);
    if (renewed || !('status' in result) || result.status !== 401 || !authorizer.refused(authorization)) return result;
  }
}
