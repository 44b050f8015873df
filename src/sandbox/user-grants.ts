// The token endpoint's user grants (spec 4.2, 5.5, 5.6): authorization_code (single use,
// ten minutes, bound to client and redirect_uri, PKCE S256 or plain) and refresh_token
// (rotating: the old refresh token stops working).
import { createHash, timingSafeEqual } from 'node:crypto';
import type { OAuthClient } from './clients.js';
import type { SandboxContext } from './context.js';
import type { SandboxResponse } from './http.js';
import { issueToken, randomToken, revokeGrant } from './issue-token.js';
import type { AuthorizationCodeRecord } from './oauth-data.js';
import { field, oauthError } from './oauth-errors.js';

const invalidGrant = (description: string) => oauthError(400, 'invalid_grant', description);

export function authorizationCode(ctx: SandboxContext, client: OAuthClient, form: FormData): SandboxResponse {
  const code = field(form, 'code');
  if (!code) throw oauthError(400, 'invalid_request', 'missing required parameter code');
  const redirectUri = field(form, 'redirect_uri');
  if (!redirectUri) throw oauthError(400, 'invalid_request', 'missing required parameter redirect_uri');
  const record = ctx.store.oauth.codes[code];
  if (!record || record.client_id !== client.client_id) throw invalidGrant('unknown authorization code, or issued to another client');
  if (record.used) {
    // A replayed code may be a stolen one: revoke what it gave (RFC 6749 4.1.2, 10.5).
    revokeGrant(ctx, record.grant_id);
    delete ctx.store.oauth.codes[code];
    throw invalidGrant('the authorization code was already used; the tokens issued for it are revoked');
  }
  if (record.expires_at <= ctx.now()) throw invalidGrant('the authorization code has expired');
  if (record.redirect_uri !== redirectUri) throw invalidGrant('redirect_uri differs from the one of the authorize request');
  checkVerifier(record, field(form, 'code_verifier'));
  record.used = true;
  return issueToken(ctx, client, record.scopes, { user_id: record.user_id, grant_id: record.grant_id });
}

function checkVerifier(record: AuthorizationCodeRecord, verifier: string | undefined): void {
  if (record.code_challenge === undefined) {
    // A verifier without a challenge is a downgrade attempt (RFC 9700 2.1.1).
    if (verifier !== undefined) throw invalidGrant('code_verifier given, but the authorize request had no code_challenge');
    return;
  }
  if (verifier === undefined) throw invalidGrant('missing code_verifier: the authorize request had a code_challenge');
  const derived = record.code_challenge_method === 'S256' ? createHash('sha256').update(verifier, 'ascii').digest('base64url') : verifier;
  const a = Buffer.from(derived);
  const b = Buffer.from(record.code_challenge);
  if (a.length !== b.length || !timingSafeEqual(a, b)) throw invalidGrant('code_verifier does not match the code_challenge');
}

export function refreshToken(ctx: SandboxContext, client: OAuthClient, form: FormData): SandboxResponse {
  const value = field(form, 'refresh_token');
  if (!value) throw oauthError(400, 'invalid_request', 'missing required parameter refresh_token');
  const record = ctx.store.oauth.refresh_tokens[value];
  if (!record || record.client_id !== client.client_id) throw invalidGrant('unknown, used or revoked refresh token');
  let scopes = record.scopes;
  const narrowed = field(form, 'scope')?.split(/\s+/).filter(Boolean);
  if (narrowed?.length) {
    const extra = narrowed.find((s) => !record.scopes.includes(s));
    if (extra) throw oauthError(400, 'invalid_scope', `scope ${extra} was not granted to this refresh token`);
    scopes = [...new Set(narrowed)];
  }
  delete ctx.store.oauth.refresh_tokens[value];
  const grantId = record.grant_id ?? randomToken(12);
  return issueToken(ctx, client, scopes, record.user_id ? { user_id: record.user_id, grant_id: grantId } : undefined, true);
}
