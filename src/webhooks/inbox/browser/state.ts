// What the inbox page knows: the deliveries as the server last sent them, which are selected
// and which is open, and the forward routes listen runs with. One object, made by the entry.
import type { InboxRecord } from '../store.js';

export interface InboxState {
  records: Map<string, InboxRecord>;
  /** Ids in arrival order; the list shows them newest first. */
  order: string[];
  selected: Set<string>;
  routes: Array<[string, string]>;
  /** The delivery open in the detail pane. */
  current: string | null;
}

export function createInboxState(): InboxState {
  return { records: new Map(), order: [], selected: new Set(), routes: [], current: null };
}

/** Adds a delivery, or replaces it in place when the server sends it again (a forward's result). */
export function remember(state: InboxState, r: InboxRecord): void {
  if (!state.records.has(r.id)) state.order.push(r.id);
  state.records.set(r.id, r);
}

/** The URL listen forwards a delivery of this type to: its own route, else the catch-all. */
export function targetOf(state: InboxState, type: string | null): string | null {
  let any: string | null = null;
  for (const [t, url] of state.routes) {
    if (t === type) return url;
    if (t === '*') any = url;
  }
  return any;
}
