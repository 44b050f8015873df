// Asks the server whether a profile's credentials still work (`auth status --check`): gets a
// token as any command would (renewing one that expired), then makes one cheap authenticated
// call chosen by the token's scopes. A 403 proves the server knows the token as much as a 200
// does; a 401 after the one renewal means it does not.
import type { HttpCore, TokenSource } from '../http/core.js';
import type { RetryPolicy } from '../http/retry.js';
import type { StoredToken } from '../config/profile.js';
import { AuthError, NetworkError } from '../base/errors.js';
import { ME_SCOPES } from './whoami.js';

/**
 * valid: the server accepted the token. expired: the stored token expired and could not be
 * renewed. refused: the server refused the token, its renewal or the client's credentials.
 * signed out: no token, and none to be had without signing in. unreachable: no answer.
 * unknown: an answer that says neither (a 404, a 5xx after retries).
 */
export type CheckState = 'valid' | 'expired' | 'refused' | 'signed out' | 'unreachable' | 'unknown';

export interface CheckResult {
  state: CheckState;
  /** What was asked and answered, or why nothing could be asked. */
  detail: string;
}

export interface CheckTarget {
  tokens: TokenSource;
  /** base_url (ads) and rider_url hosts, with `tokens` as their token source. */
  ads: HttpCore;
  rider: HttpCore;
  /** The token stored before the check; undefined when none (or when PLATFORM_TOKEN is used). */
  stored: StoredToken | undefined;
  /** A token this close to expiry counts as expired (it is renewed before use). */
  marginMs: number;
  now: number;
  signal?: AbortSignal;
}

/** A status check should not sit through a whole back-off when the server is down. */
const PROBE_RETRY: RetryPolicy = { attempts: 2, baseDelayMs: 200, maxDelayMs: 1000, maxRetryAfterMs: 2000 };

export async function checkToken(target: CheckTarget): Promise<CheckResult> {
  const { tokens, signal } = target;
  try {
    await tokens.token({ signal });
    const probe = probeFor(tokens.need.held ?? [], tokens.need.grant);
    const host = probe.host === 'ads' ? target.ads : target.rider;
    const response = await host.sendRaw({ method: 'GET', path: probe.path, signal, retry: PROBE_RETRY });
    const asked = `GET ${probe.path}: ${response.status}`;
    if ((response.status >= 200 && response.status < 300) || response.status === 403) return { state: 'valid', detail: asked };
    if (response.status === 401) return { state: 'refused', detail: `${asked} ${response.text.slice(0, 200)}` };
    return { state: 'unknown', detail: `${asked} ${response.text.slice(0, 200)}` };
  } catch (error) {
    if (signal?.aborted) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    if (error instanceof AuthError) return { state: refusal(error, target), detail };
    if (error instanceof NetworkError) return { state: 'unreachable', detail };
    return { state: 'unknown', detail };
  }
}

function refusal(error: AuthError, { stored, now, marginMs }: CheckTarget): CheckState {
  if (!stored) return error.name === 'TokenRefusedError' ? 'refused' : 'signed out';
  return stored.expires_at - marginMs <= now ? 'expired' : 'refused';
}

/** The cheapest call the token's scopes allow: the ad accounts, else who the user is. */
function probeFor(scopes: readonly string[], grant: string): { host: 'ads' | 'rider'; path: string } {
  if (scopes.includes('ads.ad-accounts.read')) return { host: 'ads', path: '/v1/ads/ad-accounts' };
  if (scopes.some((s) => ME_SCOPES.includes(s)) || grant === 'authorization_code') return { host: 'rider', path: '/v1.2/me' };
  return { host: 'ads', path: '/v1/ads/ad-accounts' };
}
