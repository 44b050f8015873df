// The sandbox's delivery log (`GET /v1.2/sandbox/applications/{client_id}/webhook/deliveries`,
// sandbox only): every event made for an application since a time, with the headers and body
// sent and whether it was accepted. `webhooks listen --since` catches up from it. A server
// that does not know the path (the real API) answers 404: undefined, so the caller can fall
// back on what this machine captured.
import type { HttpCore } from '../http/core.js';
import { pathSegment } from '../http/path-segment.js';

import type { DeliveryLogEntry } from '../schemas/webhook-log.js';

export type LoggedDelivery = DeliveryLogEntry;

export async function sandboxDeliveryLog(http: HttpCore, clientId: string, sinceMs: number, signal?: AbortSignal): Promise<LoggedDelivery[] | undefined> {
  const response = await http.sendRaw({
    method: 'GET',
    path: `/v1.2/sandbox/applications/${pathSegment(clientId, 'the client id')}/webhook/deliveries`,
    query: { since: new Date(sinceMs).toISOString() },
    auth: false,
    signal,
  });
  const body = response.body as { deliveries?: unknown } | undefined;
  if (response.status !== 200 || !Array.isArray(body?.deliveries)) return undefined;
  return body.deliveries as LoggedDelivery[];
}
