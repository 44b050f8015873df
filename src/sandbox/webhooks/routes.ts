// Sandbox-only control route (not in the real API, where the URL is set in the application
// dashboard): an application's webhook URL. No token needed: the sandbox is local.
import { json } from '../http.js';
import type { Router } from '../router.js';
import { jsonBody, riderError, validationFailed } from '../rider/errors.js';
import type { SandboxWebhooks } from './index.js';

export function registerWebhookRoutes(router: Router, webhooks: SandboxWebhooks, knownClient: (clientId: string) => boolean): void {
  const client = (id: string | undefined) => {
    if (!id || !knownClient(id)) throw riderError(404, 'not_found', `No application with client id ${id}.`);
    return id;
  };
  router.get('/v1.2/sandbox/applications/{client_id}/webhook', (req) => {
    const id = client(req.params.client_id);
    return json(200, { client_id: id, webhook_url: webhooks.urlOf(id) ?? null });
  });
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
