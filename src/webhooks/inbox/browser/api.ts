// The inbox's JSON API as the page calls it: every request carries the page's token (the
// server refuses one without it); the shapes are the server's own types.
import type { InboxListing } from '../server.js';
import type { InboxSend } from '../store.js';

export interface InboxApi {
  listing: () => Promise<InboxListing>;
  /** A replay or an edited send; rejects with the server's error message. */
  send: (path: string, body: unknown) => Promise<InboxSend>;
  events: () => EventSource;
  exportUrl: (format: 'ndjson' | 'har', ids: string[]) => string;
}

/** The token the server wrote into the page's <meta name="inbox-token">. */
export function pageToken(): string {
  return document.querySelector('meta[name="inbox-token"]')?.getAttribute('content') ?? '';
}

export function inboxApi(token: string): InboxApi {
  return {
    async listing() {
      const res = await fetch('/api/deliveries', { headers: { 'X-Inbox-Token': token } });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      return (await res.json()) as InboxListing;
    },
    async send(path, body) {
      const res = await fetch(path, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Inbox-Token': token },
        body: JSON.stringify(body),
        credentials: 'same-origin',
      });
      const json = (await res.json()) as InboxSend | { error?: string };
      if (!res.ok) throw new Error(('error' in json && json.error) || `HTTP ${res.status}`);
      return json as InboxSend;
    },
    // EventSource sends no custom header, so the token rides in the query.
    events: () => new EventSource(`/api/events?token=${encodeURIComponent(token)}`),
    exportUrl: (format, ids) => `/api/export?format=${format}&ids=${encodeURIComponent(ids.join(','))}&token=${encodeURIComponent(token)}`,
  };
}
