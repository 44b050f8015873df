// Delivery with back-off (spec 6.3.3): a delivery is accepted when the receiver answers 2xx;
// when the URL cannot be reached, or the receiver answers 500 (any 5xx, and a timeout, are
// treated the same), it is retried with exponential back-off, multiplier 30 s, up to 7
// attempts. The spec and the issue give the attempt times: "first attempt at 0 s, then 30 s,
// 60 s, 120 s and so on", i.e. attempt n (n >= 2) at base x 2^(n-2): 0, 30, 60, 120, 240,
// 480, 960 s, so the waits between attempts are 30, 30, 60, 120, 240, 480 s. Any other
// answer (4xx) is final: not accepted.
// That is the platform's schedule (the sandbox's deliveries follow it). The CLI's own sends
// (`webhooks replay`, `trigger`) are a person waiting at a terminal: fewer attempts, a base of
// about a second, doubling (clientBackoff), so a dead receiver costs seconds, not an hour.
// The waits go through an injected sleep, so tests record them instead of waiting.

export const MAX_ATTEMPTS = 7;
export const BACKOFF_BASE_SECONDS = 30;

/** Milliseconds to wait before attempts 2..n (attempts at 0, base, 2 base, 4 base, ...). */
export function backoffSchedule(baseMs: number, attempts = MAX_ATTEMPTS): number[] {
  return Array.from({ length: Math.max(0, attempts - 1) }, (_, i) => (i === 0 ? baseMs : baseMs * 2 ** (i - 1)));
}

/** The CLI's defaults for its own sends. */
export const CLIENT_MAX_ATTEMPTS = 3;
export const CLIENT_BACKOFF_BASE = '1s';

/** Milliseconds to wait before attempts 2..n of a CLI send: base, 2 base, 4 base, ... */
export function clientBackoff(baseMs: number, attempts: number): number[] {
  return Array.from({ length: Math.max(0, attempts - 1) }, (_, i) => baseMs * 2 ** i);
}

/**
 * An answer's status, or why none came (`auth`: no Authorization could be made, e.g. the token
 * URL failed; `final`: no other attempt can succeed soon, e.g. a proxy that refuses the
 * connection or a name that does not resolve, so it is not retried).
 */
export type SendResult = { status: number } | { error: string; auth?: true; final?: true };

export type Verdict = 'accepted' | 'retry' | 'rejected';

export function classify(result: SendResult): Verdict {
  if ('error' in result) return result.final ? 'rejected' : 'retry';
  if (result.status >= 200 && result.status < 300) return 'accepted';
  if (result.status >= 500) return 'retry';
  return 'rejected';
}

/**
 * The platform's own deliveries: a receiver that refuses the credentials (401, 403) fails the
 * attempt like a 500, and it is retried on the same schedule (the receiver's settings may be
 * fixed meanwhile).
 */
export function classifyAuthenticated(result: SendResult): Verdict {
  return 'status' in result && (result.status === 401 || result.status === 403) ? 'retry' : classify(result);
}

/** An attempt that failed on its credentials: refused by the receiver, or none could be made. */
export function isAuthFailure(result: SendResult): boolean {
  return 'status' in result ? result.status === 401 || result.status === 403 : result.auth === true;
}

export interface AttemptReport {
  attempt: number;
  of: number;
  result: SendResult;
  verdict: Verdict;
  /** Milliseconds until the next attempt, when there is one. */
  retryInMs?: number;
}

export interface DeliverOptions {
  attempts?: number;
  baseMs?: number;
  /** Waits before attempts 2..n; default: spec 6.3.3's schedule from baseMs. */
  waits?: readonly number[];
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  signal?: AbortSignal;
  onAttempt?: (report: AttemptReport) => void;
  /** Which answers are retried (default: classify, spec 6.3.3). */
  classify?: (result: SendResult) => Verdict;
}

/** Sends until accepted, rejected, or out of attempts. */
export async function deliver(
  send: (attempt: number) => Promise<SendResult>,
  options: DeliverOptions,
): Promise<{ accepted: boolean; attempts: AttemptReport[] }> {
  const attempts = options.attempts ?? MAX_ATTEMPTS;
  const waits = options.waits ?? backoffSchedule(options.baseMs ?? BACKOFF_BASE_SECONDS * 1000, attempts);
  const reports: AttemptReport[] = [];
  for (let attempt = 1; attempt <= attempts; attempt++) {
    const result = await send(attempt);
    const verdict = (options.classify ?? classify)(result);
    const retryInMs = verdict === 'retry' && attempt < attempts ? waits[attempt - 1] : undefined;
    const report: AttemptReport = { attempt, of: attempts, result, verdict, ...(retryInMs !== undefined ? { retryInMs } : {}) };
    reports.push(report);
    options.onAttempt?.(report);
    if (verdict !== 'retry') return { accepted: verdict === 'accepted', attempts: reports };
    if (retryInMs === undefined) break;
    await options.sleep(retryInMs, options.signal);
  }
  return { accepted: false, attempts: reports };
}
