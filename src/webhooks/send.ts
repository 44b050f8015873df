// Sending one delivery as the platform does: the body signed with the secret, the
// X-Environment header, retried per spec 6.3.3 (delivery.ts).
import { deliver, type AttemptReport } from './delivery.js';
import { sign } from './hmac.js';
import { postOnce } from './http-post.js';
import { ENVIRONMENT_HEADER, SIGNATURE_HEADER } from './signature.js';

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
  const replaced = new Set([SIGNATURE_HEADER.toLowerCase(), ENVIRONMENT_HEADER.toLowerCase()]);
  const headers = keep.filter(([name]) => !replaced.has(name.toLowerCase()));
  if (!headers.some(([n]) => n.toLowerCase() === 'content-type')) headers.push(['Content-Type', 'application/json']);
  if (!headers.some(([n]) => n.toLowerCase() === 'user-agent')) headers.push(['User-Agent', userAgent]);
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
