import { describe, expect, it } from 'vitest';
import { backoffDelay, DEFAULT_RETRY, isConnectionError, parseRetryAfter } from '../../src/http/retry.js';

describe('retry policy', () => {
  it('grows exponentially with jitter and respects the cap', () => {
    const low = () => 0;
    const high = () => 0.999;
    expect(backoffDelay(DEFAULT_RETRY, 1, low)).toBe(DEFAULT_RETRY.baseDelayMs / 2);
    expect(backoffDelay(DEFAULT_RETRY, 3, high)).toBeLessThanOrEqual(DEFAULT_RETRY.baseDelayMs * 4);
    expect(backoffDelay(DEFAULT_RETRY, 30, high)).toBeLessThanOrEqual(DEFAULT_RETRY.maxDelayMs);
  });

  it('waits at least as long as Retry-After', () => {
    expect(backoffDelay(DEFAULT_RETRY, 1, () => 0.5, 3000)).toBeGreaterThanOrEqual(3000);
    expect(parseRetryAfter('2', 0)).toBe(2000);
    expect(parseRetryAfter(new Date(10_000).toUTCString(), 4000)).toBe(6000);
    expect(parseRetryAfter('soon', 0)).toBeUndefined();
  });

  it('recognises dropped and refused connections through error causes', () => {
    expect(isConnectionError(Object.assign(new Error('x'), { cause: { code: 'ECONNRESET' } }))).toBe(true);
    expect(isConnectionError(new Error('boom'))).toBe(false);
  });
});
