// GET /oauth/v2/universal/authorize (spec 4.2, 5.5): the consent page, and the POST its
// form sends. Allow redirects with a code and the unchanged state; Deny with
// error=access_denied. Problems with the client or redirect URI get an error page, never a
// redirect (the redirect URI cannot be trusted then); once it is valid, every other error
// (response type, scope, PKCE, login hint) redirects back with error and state (RFC 6749 4.1.2.1).
import { AUTHORIZATION_CODE_LIFETIME_SECONDS, AUTHORIZE_PATH, SCOPE_DESCRIPTIONS } from '../schemas/oauth.js';
import { findClient, type OAuthClient } from './clients.js';
import { consentPage, errorPage } from './consent-page.js';
import type { SandboxContext } from './context.js';
import type { SandboxRequest, SandboxResponse } from './http.js';
import { randomToken } from './issue-token.js';
import { consentKey, type PendingConsent } from './oauth-data.js';
import { redirectUriAllowed } from './redirect-uri.js';
import type { Router } from './router.js';
import { DEMO_USER_HANDLE, findUser, SANDBOX_USERS } from './users.js';

/** A consent page left open longer than this must be reloaded. */
const CONSENT_PAGE_LIFETIME_MS = 10 * 60 * 1000;
/** RFC 7636 4.1: 43 to 128 unreserved characters. */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

export function registerAuthorizeRoutes(router: Router, ctx: SandboxContext): void {
  // The OpenAPI's authorizationUrl (/oauth/v2/authorize) answers like the spec's universal one.
  for (const path of [AUTHORIZE_PATH, '/oauth/v2/authorize']) {
    router.get(path, (req) => authorize(ctx, req));
    router.post(path, (req) => decide(ctx, req));
  }
}

type Checked = { ok: true; client: OAuthClient; redirectUri: string } | { ok: false; page: SandboxResponse };

/** The client and its redirect URI: until both hold, errors are a page, never a redirect (RFC 6749 4.1.2.1). */
function checkClient(query: URLSearchParams): Checked {
  const fail = (status: number, error: string, description: string): Checked => ({ ok: false, page: errorPage(status, error, description) });
  const clientId = query.get('client_id');
  if (!clientId) return fail(400, 'invalid_request', 'the request has no client_id');
  const client = findClient(clientId);
  if (!client || !client.grants.includes('authorization_code'))
    return fail(400, 'invalid_client', `no application with client_id ${clientId} is registered for browser sign-in`);
  const redirectUri = query.get('redirect_uri');
  if (!redirectUri) return fail(400, 'invalid_request', 'the request has no redirect_uri');
  if (!redirectUriAllowed(client.redirect_uris, redirectUri)) {
    return fail(400, 'invalid_request', `redirect_uri ${redirectUri} is not registered for ${client.name}`);
  }
  return { ok: true, client, redirectUri };
}

/** What is wrong with the scopes, as an RFC 6749 error description; undefined when they are fine. */
function scopeProblem(client: OAuthClient, scopes: string[]): string | undefined {
  if (scopes.length === 0) return 'the request names no scope';
  for (const scope of scopes) {
    if (!(scope in SCOPE_DESCRIPTIONS)) return `unknown scope ${scope}`;
    if (!client.user_scopes.includes(scope)) return `scope ${scope} is not allowed for ${client.name}`;
  }
  return undefined;
}

function authorize(ctx: SandboxContext, req: SandboxRequest): SandboxResponse {
  prune(ctx);
  const checked = checkClient(req.query);
  if (!checked.ok) return checked.page;
  const { client, redirectUri } = checked;
  // From here the redirect URI is trusted: every error goes back to it, with the state.
  const state = req.query.get('state') ?? undefined;
  const back = (params: Record<string, string>) => redirect(redirectUri, { ...params, ...(state !== undefined ? { state } : {}) });
  if (req.query.get('response_type') !== 'code') {
    return back({ error: 'unsupported_response_type', error_description: 'response_type must be code' });
  }
  const scopes = [...new Set((req.query.get('scope') ?? '').split(/\s+/).filter(Boolean))];
  const badScope = scopeProblem(client, scopes);
  if (badScope) return back({ error: 'invalid_scope', error_description: badScope });
  const hint = req.query.get('login_hint');
  const user = findUser(hint || DEMO_USER_HANDLE);
  if (!user) {
    return back({
      error: 'invalid_request',
      error_description: `no sandbox user matches login_hint ${hint}; seeded users: ${SANDBOX_USERS.map((u) => u.handle).join(', ')}`,
    });
  }
  const challenge = req.query.get('code_challenge') ?? undefined;
  const method = req.query.get('code_challenge_method') ?? (challenge ? 'plain' : undefined);
  if (challenge !== undefined && !PKCE_VALUE.test(challenge)) {
    return back({ error: 'invalid_request', error_description: 'code_challenge must be 43 to 128 characters of [A-Za-z0-9-._~]' });
  }
  if (method !== undefined && (challenge === undefined || (method !== 'S256' && method !== 'plain'))) {
    return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256 or plain, with a code_challenge' });
  }
  const request: PendingConsent = {
    id: randomToken(16),
    client_id: client.client_id,
    redirect_uri: redirectUri,
    user_id: user.rider_id,
    scopes,
    state,
    code_challenge: challenge,
    code_challenge_method: method,
    expires_at: ctx.now() + CONSENT_PAGE_LIFETIME_MS,
  };
  const remembered = ctx.store.oauth.consents.includes(consentKey(user.rider_id, client.client_id, scopes));
  if (remembered && req.query.get('prompt') !== 'consent') return issueCode(ctx, request);
  ctx.store.oauth.pending[request.id] = request;
  return consentPage({ pendingId: request.id, applicationName: client.name, user, scopes, action: AUTHORIZE_PATH });
}

/** The consent form's answer. It carries only the id of what the page showed, so nothing shown can be altered. */
function decide(ctx: SandboxContext, req: SandboxRequest): SandboxResponse {
  prune(ctx);
  const form = new URLSearchParams(req.body.toString('utf8'));
  const request = ctx.store.oauth.pending[form.get('request_id') ?? ''];
  if (!request) return errorPage(400, 'invalid_request', 'this consent page has expired or was already answered');
  delete ctx.store.oauth.pending[request.id];
  const state: Record<string, string> = request.state !== undefined ? { state: request.state } : {};
  const decision = form.get('decision');
  if (decision === 'deny') {
    return redirect(request.redirect_uri, { error: 'access_denied', error_description: 'the user denied access', ...state });
  }
  if (decision !== 'allow') return errorPage(400, 'invalid_request', 'the form must answer allow or deny');
  const key = consentKey(request.user_id, request.client_id, request.scopes);
  if (!ctx.store.oauth.consents.includes(key)) ctx.store.oauth.consents.push(key);
  return issueCode(ctx, request);
}

function issueCode(ctx: SandboxContext, request: PendingConsent): SandboxResponse {
  const code = randomToken(32);
  ctx.store.oauth.codes[code] = {
    code,
    client_id: request.client_id,
    redirect_uri: request.redirect_uri,
    user_id: request.user_id,
    scopes: request.scopes,
    code_challenge: request.code_challenge,
    code_challenge_method: request.code_challenge_method,
    expires_at: ctx.now() + AUTHORIZATION_CODE_LIFETIME_SECONDS * 1000,
    used: false,
    grant_id: randomToken(12),
  };
  ctx.persister.changed();
  return redirect(request.redirect_uri, { code, ...(request.state !== undefined ? { state: request.state } : {}) });
}

function redirect(uri: string, params: Record<string, string>): SandboxResponse {
  const url = new URL(uri);
  for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
  return { status: 302, headers: { location: url.toString(), 'cache-control': 'no-store' } };
}

/** Forgets expired codes and consent pages, so a long-running sandbox stays small. */
function prune(ctx: SandboxContext): void {
  const now = ctx.now();
  for (const [id, p] of Object.entries(ctx.store.oauth.pending)) if (p.expires_at <= now) delete ctx.store.oauth.pending[id];
  for (const [code, c] of Object.entries(ctx.store.oauth.codes)) if (c.expires_at <= now) delete ctx.store.oauth.codes[code];
}
