// The capture file of `webhooks listen --save`: NDJSON, one delivery per line, exactly as
// received: {"received_at","method","path","headers":[[name,value],...],"body_base64"}.
// Header names keep their case and order; the body is base64 so any bytes survive.
// `webhooks replay` reads these lines, or hand-written event JSON (one object, an array, or
// NDJSON of objects).
import { headerPairs } from './headers.js';

export interface CapturedDelivery {
  received_at: string;
  method: string;
  path: string;
  headers: Array<[string, string]>;
  body_base64: string;
}

export function captureLine(delivery: { at: number; method: string; path: string; rawHeaders: string[]; body: Uint8Array }): string {
  const record: CapturedDelivery = {
    received_at: new Date(delivery.at).toISOString(),
    method: delivery.method,
    path: delivery.path,
    headers: headerPairs(delivery.rawHeaders),
    body_base64: Buffer.from(delivery.body).toString('base64'),
  };
  return `${JSON.stringify(record)}\n`;
}

export interface ReplayItem {
  /** Where it came from, for messages: "line 3". */
  origin: string;
  body: Buffer;
  /** Captured headers (empty for hand-written events). */
  headers: Array<[string, string]>;
}

export class ReplayInputError extends Error {}

/** Deliveries to resend, in file order. */
export function parseReplayInput(input: Buffer): ReplayItem[] {
  const text = input.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') throw new ReplayInputError('it is empty: give a capture file (NDJSON, as listen --save writes it) or event JSON');
  let whole: unknown;
  let parsedWhole = false;
  try {
    whole = JSON.parse(text);
    parsedWhole = true;
  } catch {
    // not one JSON document: NDJSON
  }
  if (parsedWhole) {
    if (Array.isArray(whole)) return whole.map((value, i) => item(value, `item ${i + 1}`, Buffer.from(JSON.stringify(value))));
    // One document: its bytes are the body, as written (trailing whitespace aside).
    return [item(whole, 'the file', Buffer.from(text.replace(/\s+$/, '')))];
  }
  const items: ReplayItem[] = [];
  text.split('\n').forEach((line, index) => {
    const raw = line.replace(/\r$/, '');
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new ReplayInputError(`line ${index + 1} is not JSON (${(error as Error).message}); the input is a capture file (NDJSON) or event JSON`);
    }
    items.push(item(value, `line ${index + 1}`, Buffer.from(raw)));
  });
  return items;
}

function item(value: unknown, origin: string, raw: Buffer): ReplayItem {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new ReplayInputError(`${origin} is not a JSON object`);
  const o = value as Record<string, unknown>;
  if ('body_base64' in o) {
    if (typeof o.body_base64 !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(o.body_base64)) throw new ReplayInputError(`${origin}: body_base64 is not base64`);
    const headers = Array.isArray(o.headers)
      ? o.headers.filter((h): h is [string, string] => Array.isArray(h) && h.length === 2 && typeof h[0] === 'string' && typeof h[1] === 'string')
      : [];
    return { origin, body: Buffer.from(o.body_base64, 'base64'), headers };
  }
  if (typeof o.event_type !== 'string')
    throw new ReplayInputError(`${origin} has no event_type: an event is {event_id, event_time, event_type, meta, resource_href} (spec 6.1)`);
  return { origin, body: raw, headers: [] };
}
