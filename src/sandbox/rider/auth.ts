// Who calls the rider API: a server token (`Authorization: Token ...`, spec 5.9), accepted
// only where the spec says so (products, price estimates), or a user's bearer token.
import type { SandboxContext } from '../context.js';
import { header, type SandboxRequest } from '../http.js';
import { SANDBOX_CLIENTS } from '../clients.js';
import { userById, type SandboxUser } from '../users.js';
import type { TokenRecord } from '../store.js';
import { riderError } from './errors.js';

export type RiderCaller = { kind: 'server'; clientId: string } | { kind: 'user'; user: SandboxUser; token: TokenRecord };

export interface Requirement {
  /** Accept a server token too (products, price estimates). */
  server?: boolean;
  /** The user token needs one of these scopes; absent: any scope. */
  scopes?: readonly string[];
}

export function riderCaller(ctx: SandboxContext, req: SandboxRequest, need: Requirement): RiderCaller {
  const auth = header(req, 'authorization') ?? '';
  const serverToken = /^Token\s+(\S+)\s*$/i.exec(auth)?.[1];
  if (serverToken) {
    const client = SANDBOX_CLIENTS.find((c) => c.server_token !== undefined && c.server_token === serverToken);
    if (!client) throw riderError(401, 'unauthorized', 'Invalid server token.');
    if (!need.server)
      throw riderError(
        401,
        'unauthorized',
        'A server token is accepted only on products and price estimates; this endpoint needs a user access token (Authorization: Bearer).',
      );
    return { kind: 'server', clientId: client.client_id };
  }
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1];
  if (!bearer) throw riderError(401, 'unauthorized', 'Missing access token (Authorization: Bearer <token>).');
  const token = ctx.store.tokens.get(bearer);
  if (!token) throw riderError(401, 'unauthorized', 'Unknown or revoked access token.');
  if (token.expires_at <= ctx.now()) throw riderError(401, 'unauthorized', 'The access token has expired.');
  const user = token.user_id ? userById(token.user_id) : undefined;
  if (!user) {
    throw riderError(
      403,
      'insufficient_scope',
      `This endpoint needs a user access token${need.server ? ' or a server token' : ''}; a client-credentials token acts for no user.`,
    );
  }
  if (need.scopes && !need.scopes.some((s) => token.scopes.includes(s))) {
    throw riderError(403, 'insufficient_scope', `The access token needs the ${need.scopes.join(' or ')} scope.`);
  }
  return { kind: 'user', user, token };
}

export function userCaller(ctx: SandboxContext, req: SandboxRequest, scopes?: readonly string[]): Extract<RiderCaller, { kind: 'user' }> {
  return riderCaller(ctx, req, { scopes }) as Extract<RiderCaller, { kind: 'user' }>;
}
