// What `webhooks listen` requires of a delivery besides its signature, as a real receiver
// behind Basic Auth or an OAuth-protected gateway would (spec 6.3 rule 5): a Basic header with
// the user and password given, or a Bearer token it issued itself at POST /oauth/token
// (client credentials, RFC 6749 4.4; the client authenticated by HTTP Basic or in the form).
// Tokens are random, short-lived and kept in memory only.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { basicAuthorization } from './delivery-auth.js';
import { headerValue } from './headers.js';

export const TOKEN_PATH = '/oauth/token';
/** Tokens `listen` issues live this long unless --oauth-token-ttl says otherwise. */
export const DEFAULT_TOKEN_TTL_SECONDS = 300;

export type ReceiverAuthRule =
  { type: 'basic'; user: string; password: string } | { type: 'oauth'; clientId: string; clientSecret: string; ttlSeconds: number };

/** A delivery's authentication: authorized, or why not (never a credential). */
export type AuthVerdict = { authorized: true } | { authorized: false; reason: string };

export interface TokenAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

export class ReceiverAuth {
  readonly #tokens = new Map<string, number>();
  /** Tokens issued so far. */
  issued = 0;

  constructor(
    readonly rule: ReceiverAuthRule,
    private readonly now: () => number,
  ) {}

  /** The challenge a 401 carries. */
  challenge(): string {
    return this.rule.type === 'basic' ? 'Basic realm="webhook receiver", charset="UTF-8"' : 'Bearer realm="webhook receiver", error="invalid_token"';
  }

  check(headers: Array<[string, string]>): AuthVerdict {
    const given = headerValue(headers, 'authorization')?.trim();
    if (this.rule.type === 'basic') {
      if (!given) return { authorized: false, reason: 'no Authorization header (Basic required)' };
      if (!/^basic\s/i.test(given)) return { authorized: false, reason: 'not Basic credentials' };
      return same(given.replace(/^basic\s+/i, 'Basic '), basicAuthorization(this.rule.user, this.rule.password))
        ? { authorized: true }
        : { authorized: false, reason: 'wrong Basic credentials' };
    }
    if (!given) return { authorized: false, reason: 'no Authorization header (Bearer token required)' };
    const token = /^bearer\s+(\S+)$/i.exec(given)?.[1];
    if (!token) return { authorized: false, reason: 'not a Bearer token' };
    const expires = this.#tokens.get(token);
    if (expires === undefined) return { authorized: false, reason: 'a Bearer token this listener did not issue' };
    if (this.now() >= expires) return { authorized: false, reason: 'an expired Bearer token' };
    return { authorized: true };
  }

  /** POST /oauth/token: a client-credentials token for the right client, else the RFC 6749 5.2 error. */
  issueToken(headers: Array<[string, string]>, body: Buffer): TokenAnswer {
    if (this.rule.type !== 'oauth') return { status: 404, headers: {}, body: { error: 'not_found' } };
    const form = new URLSearchParams(body.toString('utf8'));
    let id = form.get('client_id') ?? undefined;
    let secret = form.get('client_secret') ?? undefined;
    const basic = /^basic\s+(\S+)$/i.exec(headerValue(headers, 'authorization')?.trim() ?? '')?.[1];
    if (basic) {
      const decoded = Buffer.from(basic, 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      // RFC 6749 2.3.1: the id and secret are form-urlencoded before they are joined.
      id = decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' '));
      secret = decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' '));
    }
    const fail = (status: number, error: string) => ({
      status,
      headers: { 'cache-control': 'no-store', ...(status === 401 ? { 'www-authenticate': 'Basic realm="webhook receiver"' } : {}) },
      body: { error },
    });
    if (form.get('grant_type') !== 'client_credentials') return fail(400, 'unsupported_grant_type');
    if (id === undefined || secret === undefined || !same(id, this.rule.clientId) || !same(secret, this.rule.clientSecret)) return fail(401, 'invalid_client');
    const token = randomBytes(32).toString('base64url');
    this.#tokens.set(token, this.now() + this.rule.ttlSeconds * 1000);
    this.issued++;
    for (const [old, expires] of this.#tokens) if (this.now() >= expires) this.#tokens.delete(old);
    return {
      status: 200,
      headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
      body: { access_token: token, token_type: 'Bearer', expires_in: this.rule.ttlSeconds, ...(form.get('scope') ? { scope: form.get('scope') } : {}) },
    };
  }
}

/** Compared in constant time (a length that differs is told at once, as anywhere). */
function same(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
