// The HMAC check behind webhooks verify, the receiver and the diagnoses: the right
// HMAC-SHA256 matches; one flipped bit, another secret or a value of another length does not,
// and the last is a plain false (timingSafeEqual throws on unequal lengths).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { matches, sign } from '../../src/webhooks/hmac.js';

const body = Buffer.from('{"event_id":"e1","event_type":"store.menu.updated"}');
const secret = 'whsec_test';
const right = createHmac('sha256', secret).update(body).digest();

describe('hmac', () => {
  it('sign gives the lowercase hex HMAC-SHA256 of the bytes', () => {
    expect(sign(body, secret)).toBe(right.toString('hex'));
  });

  it('matches only the HMAC of these bytes under this secret', () => {
    expect(matches(body, secret, right)).toBe(true);
    const flipped = Buffer.from(right);
    flipped[31] = flipped[31]! ^ 1;
    expect(matches(body, secret, flipped)).toBe(false);
    expect(matches(body, 'whsec_other', right)).toBe(false);
    expect(matches(Buffer.concat([body, Buffer.from('\n')]), secret, right)).toBe(false);
  });

  it('a value of another length is no match, not an error', () => {
    expect(matches(body, secret, right.subarray(0, 31))).toBe(false);
    expect(matches(body, secret, Buffer.concat([right, Buffer.alloc(1)]))).toBe(false);
    expect(matches(body, secret, Buffer.alloc(0))).toBe(false);
  });
});
