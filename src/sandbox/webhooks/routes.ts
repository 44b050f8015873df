// Sandbox-only control routes (not in the real API, where the URL is set in the application
// dashboard): an application's webhook URL, and its delivery log (every event made, with
// what was sent and whether it was accepted; `webhooks listen --since` catches up from it).
// No token needed: the sandbox is local.
import { json } from '../http.js';
import type { Router } from '../router.js';
import { jsonBody, riderError, validationFailed } from '../rider/errors.js';
import type { SandboxWebhooks } from './index.js';
import { describeAuth, type DeliveryAuth } from '../../webhooks/delivery-auth.js';

export function registerWebhookRoutes(router: Router, webhooks: SandboxWebhooks, knownClient: (clientId: string) => boolean): void {
  const client = (id: string | undefined) => knownOrNotFound(id, knownClient);
  router.get('/v1.2/sandbox/applications/{client_id}/webhook', (req) => {
    const id = client(req.params.client_id);
    return json(200, { client_id: id, webhook_url: webhooks.urlOf(id) ?? null, authentication: shownAuth(webhooks.authOf(id)) });
  });
  registerDeliveryLogRoutes(router, webhooks, knownClient);
  router.add('PUT', '/v1.2/sandbox/applications/{client_id}/webhook', (req) => {
    const id = client(req.params.client_id);
    const body = jsonBody(req.body) as { webhook_url?: unknown; authentication?: unknown } | null;
    const url = body?.webhook_url;
    // Either may be given alone: a PUT of only `authentication` keeps the URL.
    if (url !== undefined && url !== null && (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url))) {
      throw validationFailed({ webhook_url: ['an http:// or https:// URL, or null to remove it'] });
    }
    if (url === undefined && body?.authentication === undefined) throw validationFailed({ webhook_url: ['an http:// or https:// URL, or null to remove it'] });
    const auth = body?.authentication === undefined ? undefined : authOf(body.authentication);
    if (url !== undefined) webhooks.setUrl(id, url ?? undefined);
    if (auth !== undefined) webhooks.setAuth(id, auth);
    return { status: 204 };
  });
}

/**
 * The authentication of an application's deliveries (spec 6.3 rule 5's settings):
 * {type: "none"}, {type: "basic", username, password}, or {type: "oauth", token_url,
 * client_id, client_secret, scopes?}.
 */
function authOf(value: unknown): DeliveryAuth | null {
  const a = (value ?? {}) as Record<string, unknown>;
  const text = (key: string) => (typeof a[key] === 'string' && a[key] !== '' ? a[key] : undefined);
  if (a.type === 'none') return null;
  if (a.type === 'basic') {
    const user = text('username');
    const password = text('password');
    if (!user || user.includes(':') || !password) throw validationFailed({ authentication: ['basic needs a username (without a colon) and a password'] });
    return { type: 'basic', user, password };
  }
  if (a.type === 'oauth') {
    const tokenUrl = text('token_url');
    const clientId = text('client_id');
    const clientSecret = text('client_secret');
    if (!tokenUrl || !/^https?:\/\/\S+$/.test(tokenUrl) || !clientId || !clientSecret) {
      throw validationFailed({ authentication: ['oauth needs token_url (an http:// or https:// URL), client_id and client_secret'] });
    }
    return { type: 'oauth', tokenUrl, clientId, clientSecret, ...(text('scopes') ? { scopes: text('scopes') } : {}) };
  }
  throw validationFailed({ authentication: ['type is none, basic or oauth'] });
}

/** The settings as shown: never a password or a client secret. */
function shownAuth(auth: DeliveryAuth | undefined): Record<string, string> {
  if (!auth) return { type: 'none' };
  if (auth.type === 'basic') return { type: 'basic', username: auth.user, summary: describeAuth(auth) };
  return { type: 'oauth', token_url: auth.tokenUrl, client_id: auth.clientId, ...(auth.scopes ? { scopes: auth.scopes } : {}), summary: describeAuth(auth) };
}

/** `?since=` as ISO 8601 or Unix seconds; none: the whole log. */
function sinceOf(text: string | null): number | undefined {
  if (text === null || text === '') return 0;
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text) * 1000;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : ms;
}

export function registerDeliveryLogRoutes(router: Router, webhooks: SandboxWebhooks, knownClient: (clientId: string) => boolean): void {
  router.get('/v1.2/sandbox/applications/{client_id}/webhook/deliveries', (req) => {
    const id = knownOrNotFound(req.params.client_id, knownClient);
    const since = sinceOf(req.query.get('since'));
    if (since === undefined) throw validationFailed({ since: ['an ISO 8601 time or Unix seconds'] });
    return json(200, { client_id: id, deliveries: webhooks.deliveriesOf(id, since) });
  });
}

function knownOrNotFound(id: string | undefined, knownClient: (clientId: string) => boolean): string {
  if (!id || !knownClient(id)) throw riderError(404, 'not_found', `No application with client id ${id}.`);
  return id;
}
