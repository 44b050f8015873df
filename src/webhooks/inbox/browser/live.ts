// Loading the inbox and following it live: the deliveries so far from the JSON API, then each
// new one and each update (a forward's result) over server-sent events, which the browser
// reconnects by itself; the header line says whether the page is live.
import type { InboxListing } from '../server.js';
import type { InboxRecord } from '../store.js';
import type { InboxApi } from './api.js';
import { remember, type InboxState } from './state.js';
import type { InboxUi } from './ui.js';

export interface LiveTargets {
  render: () => void;
  /** Shows the open delivery again when an update of it arrives. */
  reopen: (id: string) => void;
}

function describeWhere(ui: InboxUi, state: InboxState, data: InboxListing): void {
  const forwarding = state.routes.length ? `; forwarding ${state.routes.map(([t, url]) => `${t} to ${url}`).join(', ')}` : '; not forwarding';
  ui.where.textContent = `Listening on ${data.listen_url}${forwarding}`;
  ui.emptyUrl.textContent = data.listen_url;
  ui.emptyCommand.textContent = data.test_command;
}

function follow(ui: InboxUi, state: InboxState, api: InboxApi, to: LiveTargets): void {
  const upsert = (r: InboxRecord, isNew: boolean) => {
    remember(state, r);
    to.render();
    if (state.current === r.id) to.reopen(r.id);
    if (isNew) ui.live.textContent = `live: ${state.order.length} deliveries`;
  };
  const record = (e: Event) => JSON.parse((e as MessageEvent<string>).data) as InboxRecord;
  const source = api.events();
  source.addEventListener('open', () => (ui.live.textContent = `live: ${state.order.length} deliveries`));
  source.addEventListener('delivery', (e) => upsert(record(e), true));
  source.addEventListener('update', (e) => upsert(record(e), false));
  source.addEventListener('error', () => {
    ui.live.textContent = source.readyState === EventSource.CLOSED ? 'disconnected: reload the page once listen runs again' : 'reconnecting…';
  });
}

/** Loads the deliveries so far, then follows new ones; a failed load is said in the header. */
export function startLive(ui: InboxUi, state: InboxState, api: InboxApi, to: LiveTargets): void {
  const start = async () => {
    const data = await api.listing();
    state.routes = data.routes;
    describeWhere(ui, state, data);
    for (const r of data.deliveries) remember(state, r);
    to.render();
    follow(ui, state, api, to);
  };
  start().catch((e: unknown) => (ui.live.textContent = `could not load the inbox: ${e instanceof Error ? e.message : String(e)}`));
}
