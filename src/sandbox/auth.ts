// Bearer token check and per-operation scopes of the ads API (spec 5.1, 7.1).
import { findClient, type OAuthClient } from './clients.js';
import type { SandboxContext } from './context.js';
import { adsError, header, type SandboxRequest } from './http.js';
import type { TokenRecord } from './store.js';

export interface Caller {
  token: TokenRecord;
  client: OAuthClient;
}

export function bearerToken(req: SandboxRequest): string | undefined {
  return header(req, 'authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

export function authenticate(ctx: SandboxContext, req: SandboxRequest, scope: string): Caller {
  const value = bearerToken(req);
  if (!value) throw adsError(401, 'Unauthorized', 'missing bearer token (Authorization: Bearer <token>)');
  const token = ctx.store.tokens.get(value);
  if (!token) throw adsError(401, 'Unauthorized', 'unknown or revoked access token');
  if (token.expires_at <= ctx.now()) throw adsError(401, 'Unauthorized', 'the access token has expired');
  const client = findClient(token.client_id);
  if (!client) throw adsError(401, 'Unauthorized', 'the token belongs to an unknown client');
  if (!token.scopes.includes(scope)) throw adsError(403, 'PermissionDenied', `the token lacks scope ${scope}`);
  return { token, client };
}
