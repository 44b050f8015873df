// POST /oauth/v2/token (spec 4.2, 5): client authentication, the hourly limit, and a
// table of grants.
import { timingSafeEqual } from 'node:crypto';
import { TOKEN_PATH } from '../schemas/oauth.js';
import { findClient, type OAuthClient } from './clients.js';
import type { SandboxContext } from './context.js';
import { header, type SandboxRequest, type SandboxResponse } from './http.js';
import { issueToken } from './issue-token.js';
import { field, oauthError } from './oauth-errors.js';
import type { Router } from './router.js';
import { authorizationCode, refreshToken } from './user-grants.js';

const HOUR_MS = 3600_000;

export type GrantHandler = (ctx: SandboxContext, client: OAuthClient, form: FormData) => SandboxResponse;

export const GRANTS: Record<string, GrantHandler> = {
  client_credentials: clientCredentials,
  authorization_code: authorizationCode,
  refresh_token: refreshToken,
};

export function registerOAuthRoutes(router: Router, ctx: SandboxContext): void {
  const requestLog = new Map<string, number[]>();
  router.post(TOKEN_PATH, async (req) => {
    ctx.stats.tokenRequests++;
    const form = await parseForm(req);
    const grantType = field(form, 'grant_type');
    if (!grantType) throw oauthError(400, 'invalid_request', 'missing required parameter grant_type');
    const client = authenticateClient(req, form);
    // Spec 5.4 limits client-credentials requests; a user's sign-in or refresh is not counted.
    if (grantType === 'client_credentials') limitRequests(ctx, requestLog, client.client_id);
    const grant = GRANTS[grantType];
    if (!grant || !client.grants.includes(grantType)) {
      throw oauthError(400, 'unsupported_grant_type', `grant_type ${grantType} is not supported`);
    }
    return grant(ctx, client, form);
  });
}

async function parseForm(req: SandboxRequest): Promise<FormData> {
  const type = header(req, 'content-type') ?? '';
  if (!/^(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)) {
    throw oauthError(400, 'invalid_request', 'the body must be application/x-www-form-urlencoded or multipart/form-data');
  }
  try {
    const request = new Request('http://sandbox/', { method: 'POST', headers: { 'content-type': type }, body: req.body, duplex: 'half' });
    return await request.formData();
  } catch {
    throw oauthError(400, 'invalid_request', 'the form body could not be parsed');
  }
}

function authenticateClient(req: SandboxRequest, form: FormData): OAuthClient {
  let clientId = field(form, 'client_id');
  let secret = field(form, 'client_secret');
  const auth = header(req, 'authorization');
  const basic = auth?.match(/^Basic\s+(.+)$/i);
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon >= 0) {
      clientId = decodeURIComponent(decoded.slice(0, colon));
      secret = decodeURIComponent(decoded.slice(colon + 1));
    }
  }
  if (!clientId) throw oauthError(400, 'invalid_request', 'missing required parameter client_id');
  if (!secret) throw oauthError(400, 'invalid_request', 'missing required parameter client_secret');
  const client = findClient(clientId);
  if (!client || !sameSecret(client.client_secret, secret)) {
    throw oauthError(
      401,
      'invalid_client',
      'client authentication failed: unknown client or wrong secret',
      basic ? { 'www-authenticate': 'Basic realm="sandbox"' } : undefined,
    );
  }
  return client;
}

function sameSecret(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function limitRequests(ctx: SandboxContext, log: Map<string, number[]>, clientId: string): void {
  const now = ctx.now();
  const recent = (log.get(clientId) ?? []).filter((t) => t > now - HOUR_MS);
  if (recent.length >= ctx.tokenRequestsPerHour) {
    log.set(clientId, recent);
    const retryAfter = Math.max(1, Math.ceil((recent[0]! + HOUR_MS - now) / 1000));
    throw oauthError(429, 'rate_limit_exceeded', `at most ${ctx.tokenRequestsPerHour} token requests per hour per client`, {
      'retry-after': String(retryAfter),
    });
  }
  recent.push(now);
  log.set(clientId, recent);
}

function clientCredentials(ctx: SandboxContext, client: OAuthClient, form: FormData): SandboxResponse {
  const requested = field(form, 'scope')?.split(/\s+/).filter(Boolean);
  const scopes = requested && requested.length > 0 ? [...new Set(requested)] : [...client.scopes];
  for (const scope of scopes) {
    if (!client.scopes.includes(scope)) throw oauthError(400, 'invalid_scope', `scope ${scope} is not allowed for this client`);
  }
  // Spec 4.2: the client-credentials token response includes a refresh token (not where the client may not refresh, e.g. delivery, 5.4).
  return issueToken(ctx, client, scopes, undefined, client.grants.includes('refresh_token'));
}
