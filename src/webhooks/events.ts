// Event payloads of spec 6.1 and their types (6.2): building one, and reading the fields a
// receiver keys on from a body it received (tolerantly: a body may be anything).
import { randomUUID } from 'node:crypto';

export const EVENT_TYPES = ['requests.status_changed', 'requests.receipt_ready', 'all_trips.status_changed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface WebhookEvent {
  event_id: string;
  /** Unix timestamp (seconds). */
  event_time: number;
  event_type: string;
  meta: { user_id: string; resource_id: string; resource_type?: string; status: string };
  resource_href: string;
}

export interface EventInit {
  type: EventType;
  resourceId: string;
  status?: string;
  userId: string;
  /** API base URL the resource_href points into, e.g. http://127.0.0.1:4010. */
  baseUrl: string;
  /** Milliseconds since the epoch. */
  now: number;
  eventId?: string;
}

/** The status a type carries when none is given: a receipt is "ready" (spec 6.2). */
export function defaultStatus(type: EventType): string {
  return type === 'requests.receipt_ready' ? 'ready' : 'accepted';
}

/** A payload in the key order of spec 6.1. */
export function buildEvent(init: EventInit): WebhookEvent {
  const receipt = init.type === 'requests.receipt_ready';
  const base = init.baseUrl.replace(/\/+$/, '');
  return {
    event_id: init.eventId ?? randomUUID(),
    event_time: Math.floor(init.now / 1000),
    event_type: init.type,
    meta: {
      user_id: init.userId,
      resource_id: init.resourceId,
      resource_type: receipt ? 'request_receipt' : 'request',
      status: init.status ?? defaultStatus(init.type),
    },
    resource_href: `${base}/v1.2/requests/${encodeURIComponent(init.resourceId)}${receipt ? '/receipts' : ''}`,
  };
}

/** The exact bytes sent: compact JSON. */
export function eventBody(event: WebhookEvent): Buffer {
  return Buffer.from(JSON.stringify(event));
}

export interface EventFields {
  event_id?: string;
  event_type?: string;
  resource_id?: string;
  status?: string;
  event_time?: number;
}

/** What a receiver keys on; undefined when the body is not a JSON object. */
export function readEventFields(body: Uint8Array): EventFields | undefined {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const meta = (o.meta && typeof o.meta === 'object' ? o.meta : {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return {
    event_id: str(o.event_id),
    event_type: str(o.event_type),
    resource_id: str(meta.resource_id),
    status: str(meta.status),
    event_time: typeof o.event_time === 'number' ? o.event_time : undefined,
  };
}
