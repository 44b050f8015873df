// Which failures are worth another attempt, and how long to wait before it.

export interface RetryPolicy {
  /** Total attempts, the first included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Longest Retry-After we honour before giving up on waiting. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 5, baseDelayMs: 200, maxDelayMs: 8000, maxRetryAfterMs: 60_000 };

export function isRetryableStatus(status: number): boolean {
  return status === 429 || status === 500 || status === 502 || status === 503 || status === 504;
}

const RETRYABLE_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/** A transport failure (refused, reset, dropped mid-response) rather than an answer. */
export function isConnectionError(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: string }).code;
    if (code && RETRYABLE_CODES.has(code)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * A connection failure another attempt cannot fix soon, so it is not retried: the name does
 * not exist (ENOTFOUND; EAI_AGAIN, a resolver that did not answer, is retried), the proxy
 * refused the connection (a proxy is configured, not restarting), or nothing listens on this
 * machine (a refused loopback address: the sandbox is not running). A refused remote host
 * may be a server restarting, and resets and timeouts may pass: those are retried.
 */
export function isFinalConnectionFailure(error: unknown, url: string, viaProxy: boolean): boolean {
  const code = connectionErrorCode(error);
  if (code === 'ENOTFOUND') return true;
  if (code !== 'ECONNREFUSED') return false;
  if (viaProxy || isLoopbackHost(new URL(url).hostname)) return true;
  // A name (not an address) that resolved to this machine only.
  const tried = refusedAddresses(error);
  return tried.length > 0 && tried.every(isLoopbackHost);
}

/** 127.0.0.0/8, ::1 (and 127.x mapped into IPv6), localhost and its subdomains (RFC 6761). */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1' || name === '0:0:0:0:0:0:0:1') return true;
  return /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name);
}

/** The addresses a refused connect tried (one, or each of a name's addresses when Node tried them in turn). */
function refusedAddresses(error: unknown): string[] {
  const addresses: string[] = [];
  for (let current = error, depth = 0; current && depth < 4; depth++, current = (current as { cause?: unknown }).cause) {
    const { address, errors } = current as { address?: unknown; errors?: unknown };
    if (typeof address === 'string') addresses.push(address);
    if (Array.isArray(errors)) for (const each of errors as Array<{ address?: unknown }>) if (typeof each?.address === 'string') addresses.push(each.address);
  }
  return addresses;
}

export function connectionErrorCode(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; current && depth < 4; depth++) {
    const code = (current as { code?: string }).code;
    if (code) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return error instanceof Error ? error.message : String(error);
}

/** Retry-After as milliseconds (delta-seconds or an HTTP date), undefined when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value.trim())) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** Exponential back-off with full jitter; a server's Retry-After wins when it is longer. */
export function backoffDelay(policy: RetryPolicy, attempt: number, random: () => number, retryAfterMs?: number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jittered = Math.round(ceiling / 2 + (random() * ceiling) / 2);
  return retryAfterMs === undefined ? jittered : Math.max(retryAfterMs, jittered / 4);
}
