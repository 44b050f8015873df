// PKCE (RFC 7636, S256) and the state value of an authorization request.
import { createHash, randomBytes } from 'node:crypto';

export interface Pkce {
  verifier: string;
  challenge: string;
  method: 'S256';
}

export function createPkce(): Pkce {
  // 32 random bytes: a 43-character verifier, the RFC's minimum length and 256 bits.
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier, 'ascii').digest('base64url'), method: 'S256' };
}

/** An unguessable state, so that a callback forged by another page is recognised. */
export function createState(): string {
  return randomBytes(16).toString('base64url');
}
