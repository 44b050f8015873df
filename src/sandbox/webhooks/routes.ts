// Sandbox-only control routes (not in the real API, where the URL is set in the application
// dashboard): an application's webhook URL, and its delivery log (every event made, with
// what was sent and whether it was accepted; `webhooks listen --since` catches up from it).
// No token needed: the sandbox is local.
import { json } from '../http.js';
import type { Router } from '../router.js';
import { jsonBody, riderError, validationFailed } from '../rider/errors.js';
import type { SandboxWebhooks } from './index.js';

export function registerWebhookRoutes(router: Router, webhooks: SandboxWebhooks, knownClient: (clientId: string) => boolean): void {
  const client = (id: string | undefined) => knownOrNotFound(id, knownClient);
  router.get('/v1.2/sandbox/applications/{client_id}/webhook', (req) => {
    const id = client(req.params.client_id);
    return json(200, { client_id: id, webhook_url: webhooks.urlOf(id) ?? null });
  });
  registerDeliveryLogRoutes(router, webhooks, knownClient);
  router.add('PUT', '/v1.2/sandbox/applications/{client_id}/webhook', (req) => {
    const id = client(req.params.client_id);
    const body = jsonBody(req.body) as { webhook_url?: unknown } | null;
    const url = body?.webhook_url;
    if (url !== null && (typeof url !== 'string' || !/^https?:\/\/\S+$/.test(url))) {
      throw validationFailed({ webhook_url: ['an http:// or https:// URL, or null to remove it'] });
    }
    webhooks.setUrl(id, url ?? undefined);
    return { status: 204 };
  });
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
