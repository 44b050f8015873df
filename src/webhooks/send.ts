// Sending one delivery as the platform does: the body signed with the secret, the
// X-Environment header, retried per spec 6.3.3 (delivery.ts).
import { deliver, type AttemptReport } from './delivery.js';
import { sign } from './hmac.js';
import { postOnce } from './http-post.js';
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
  return deliver(() => postOnce(options.url, options.body, headers, { timeoutMs: options.timeoutMs, signal: options.signal }), {
    attempts: options.attempts,
    baseMs: options.baseMs,
    waits: options.waits,
    sleep: options.sleep,
    signal: options.signal,
    onAttempt: options.onAttempt,
  });
}
