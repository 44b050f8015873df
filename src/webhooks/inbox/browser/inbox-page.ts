// The inbox page's script (bundled by esbuild for the browser: ../../../base/page-script.ts).
// It reads the deliveries through the inbox's JSON API and follows them live over server-sent
// events; the record shapes are the server's own types. This entry wires the parts together.
import { inboxApi, pageToken } from './api.js';
import { byId } from './dom.js';
import { openDelivery } from './detail.js';
import { wireFilter } from './filter.js';
import { wireKeys } from './keys.js';
import { deliveryList, type OpenDelivery } from './list.js';
import { startLive } from './live.js';
import { replayForm } from './replay.js';
import { wireSelection } from './selection.js';
import { resizable } from './splitter.js';
import { createInboxState } from './state.js';
import { inboxUi } from './ui.js';

const ui = inboxUi();
const state = createInboxState();
const api = inboxApi(pageToken());
const open: OpenDelivery = (id, focus) => openDelivery(ui, state, id, focus);
const list = deliveryList(ui, state, open);

wireFilter(ui, list.render);
wireSelection(ui, state, api, list.render);
const replay = replayForm(ui, state, api);
wireKeys(ui, state, { list, open, replay });
resizable(byId('splitter', HTMLElement), byId('panes', HTMLElement));
startLive(ui, state, api, { render: list.render, reopen: (id) => open(id, false) });
