// The HMAC itself: hex HMAC-SHA256 of raw bytes, and a constant-time comparison.
import { createHmac, timingSafeEqual } from 'node:crypto';

export function sign(body: Uint8Array, secret: string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/** Constant-time check of `expected` (32 bytes) against the HMAC of `body`. */
export function matches(body: Uint8Array, secret: string, expected: Buffer): boolean {
  const computed = createHmac('sha256', secret).update(body).digest();
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}
