// Bearer token checks: per-operation scopes of the ads API (spec 5.1, 7.1), and user
// tokens of the rider API (spec 4.4, 7.2).
import { findClient, type OAuthClient } from './clients.js';
import type { SandboxContext } from './context.js';
import { adsError, header, HttpError, type SandboxRequest } from './http.js';
import type { TokenRecord } from './store.js';
import { userById, type SandboxUser } from './users.js';

export interface Caller {
  token: TokenRecord;
  client: OAuthClient;
}

export function bearerToken(req: SandboxRequest): string | undefined {
  return header(req, 'authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
}

type Problem = 'missing' | 'unknown' | 'expired' | 'client';

const PROBLEMS: Record<Problem, string> = {
  missing: 'missing bearer token (Authorization: Bearer <token>)',
  unknown: 'unknown or revoked access token',
  expired: 'the access token has expired',
  client: 'the token belongs to an unknown client',
};

function validToken(ctx: SandboxContext, req: SandboxRequest): Caller | Problem {
  const value = bearerToken(req);
  if (!value) return 'missing';
  const token = ctx.store.tokens.get(value);
  if (!token) return 'unknown';
  if (token.expires_at <= ctx.now()) return 'expired';
  const client = findClient(token.client_id);
  if (!client) return 'client';
  return { token, client };
}

export function authenticate(ctx: SandboxContext, req: SandboxRequest, scope: string): Caller {
  const caller = validToken(ctx, req);
  if (typeof caller === 'string') throw adsError(401, 'Unauthorized', PROBLEMS[caller]);
  if (!caller.token.scopes.includes(scope)) throw adsError(403, 'PermissionDenied', `the token lacks scope ${scope}`);
  return caller;
}

/** Rider API error body (spec 7.2): {message, code}. */
export function riderError(status: number, code: string, message: string): HttpError {
  return new HttpError({ status, body: { message, code } });
}

export interface UserCaller extends Caller {
  user: SandboxUser;
}

/** A user's token (authorization-code grant) holding at least one of `anyOf`. */
export function authenticateUser(ctx: SandboxContext, req: SandboxRequest, anyOf: readonly string[]): UserCaller {
  const caller = validToken(ctx, req);
  if (typeof caller === 'string') throw riderError(401, 'unauthorized', PROBLEMS[caller]);
  const user = caller.token.user_id ? userById(caller.token.user_id) : undefined;
  if (!user)
    throw riderError(403, 'forbidden', 'this endpoint needs a user access token (authorization-code grant); a client-credentials token acts for no user');
  if (!anyOf.some((s) => caller.token.scopes.includes(s))) {
    throw riderError(403, 'forbidden', `the token needs one of these scopes: ${anyOf.join(', ')}`);
  }
  return { ...caller, user };
}
