// Issuing access (and refresh) tokens: one place for their shape and lifetime.
import { randomBytes } from 'node:crypto';
import { TOKEN_LIFETIME_SECONDS } from '../schemas/oauth.js';
import type { OAuthClient } from './clients.js';
import type { SandboxContext } from './context.js';
import { json, type SandboxResponse } from './http.js';

export function randomToken(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export interface UserGrant {
  user_id: string;
  grant_id: string;
}

/**
 * A token response (spec 2.8); with `user`, for that user. A refresh token comes with it when
 * `refresh` (a user's grant always; client credentials where the client may refresh, spec 4.2).
 */
export function issueToken(ctx: SandboxContext, client: OAuthClient, scopes: string[], user?: UserGrant, refresh = user !== undefined): SandboxResponse {
  const token = randomToken();
  ctx.store.tokens.set(token, {
    token,
    client_id: client.client_id,
    scopes,
    expires_at: ctx.now() + TOKEN_LIFETIME_SECONDS * 1000,
    ...(user ? { user_id: user.user_id, grant_id: user.grant_id } : {}),
  });
  let refreshToken: string | undefined;
  if (refresh) {
    refreshToken = randomToken(32);
    ctx.store.oauth.refresh_tokens[refreshToken] = { refresh_token: refreshToken, client_id: client.client_id, scopes, grant_id: randomToken(12), ...user };
  }
  ctx.persister.changed();
  return json(
    200,
    {
      access_token: token,
      token_type: 'Bearer',
      expires_in: TOKEN_LIFETIME_SECONDS,
      scope: scopes.join(' '),
      ...(refreshToken ? { refresh_token: refreshToken } : {}),
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

/** Revokes every access and refresh token issued from one authorization code. */
export function revokeGrant(ctx: SandboxContext, grantId: string): void {
  for (const [value, record] of ctx.store.tokens) if (record.grant_id === grantId) ctx.store.tokens.delete(value);
  for (const [value, record] of Object.entries(ctx.store.oauth.refresh_tokens)) {
    if (record.grant_id === grantId) delete ctx.store.oauth.refresh_tokens[value];
  }
  ctx.persister.changed();
}
