// Idempotency-Key on POST/PATCH: the first successful response for (scope, key) is kept for
// 24 hours (as Stripe keeps keys) and replayed for a repeat without applying anything again;
// the same key with another request (method, path or body) is refused (400). An ads write's
// scope is its ad account, whoever sends it (any client, token or machine: a plan applied
// twice is applied once); a ride request's is the client.
import { createHash } from 'node:crypto';
import type { SandboxContext } from './context.js';
import { adsError, header, type SandboxRequest, type SandboxResponse } from './http.js';

export const IDEMPOTENCY_TTL_MS = 24 * 3600_000;
/** Keys kept at most: the oldest go first (a retry comes within minutes, not after 20,000 other writes). */
export const IDEMPOTENCY_MAX_KEYS = 20_000;

/** The scope of an ads write's keys: its account. */
export function accountScope(accountId: string): string {
  return `account ${accountId}`;
}

/** The scope of keys sent by a client (a ride request). */
export function clientScope(clientId: string): string {
  return `client ${clientId}`;
}

export function idempotent(ctx: SandboxContext, req: SandboxRequest, scope: string, apply: () => SandboxResponse): SandboxResponse {
  const key = header(req, 'idempotency-key');
  if (!key) return apply();
  const now = ctx.now();
  const id = `${scope}\n${key}`;
  const fingerprint = createHash('sha256').update(`${req.method} ${req.path}\n`).update(req.body).digest('base64url');
  const stored = ctx.store.idempotency.get(id);
  if (stored && stored.expires_at > now) {
    if (stored.fingerprint !== fingerprint) {
      throw adsError(400, 'BadRequest', 'Idempotency-Key was already used for a different request');
    }
    return { status: stored.status, body: stored.body, headers: { 'idempotent-replayed': 'true' } };
  }
  const response = apply();
  if (response.status >= 200 && response.status < 300) {
    pruneExpired(ctx, now);
    ctx.store.idempotency.set(id, { key: id, fingerprint, status: response.status, body: response.body, expires_at: now + IDEMPOTENCY_TTL_MS });
    ctx.persister.changed();
  }
  return response;
}

function pruneExpired(ctx: SandboxContext, now: number): void {
  pruneKeys(ctx.store.idempotency, now, IDEMPOTENCY_MAX_KEYS);
}

/** Drops expired keys and the oldest beyond `max - 1` (room for one more); the map keeps insertion order, so both are at its front. */
export function pruneKeys(keys: Map<string, { expires_at: number }>, now: number, max: number): void {
  for (const [k, v] of keys) {
    if (v.expires_at > now && keys.size < max) break;
    keys.delete(k);
  }
}
