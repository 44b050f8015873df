// One event of the sandbox's delivery log (`GET /v1.2/sandbox/applications/{id}/webhook/deliveries`),
// as the sandbox sends it and the client reads it: what was sent (headers and body, as a
// capture line of `webhooks listen --save`) and whether any attempt was accepted.
export interface DeliveryLogEntry {
  event_id: string;
  event_type: string;
  resource_id: string;
  status: string;
  /** When the event was made (wall clock, ISO 8601). */
  created_at: string;
  /** The URL it went to; null when the application had none (nothing was sent). */
  url: string | null;
  attempts: number;
  /** Accepted (2xx) by an attempt. */
  delivered: boolean;
  headers: Array<[string, string]>;
  body_base64: string;
}
