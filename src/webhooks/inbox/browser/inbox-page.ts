// The inbox page's script (bundled by esbuild for the browser: ../../../base/page-script.ts).
// It reads the deliveries through the inbox's JSON API and follows them live over server-sent
// events; the record shapes are the server's own types.
import type { InboxListing } from '../server.js';
import type { InboxRecord, InboxSend } from '../store.js';
import { decodeBody, diffLines, pretty, renderRaw } from './body.js';
import { byId, cell, el, isPageKey } from './dom.js';
import { isAccepted, isRefused, resultText, sendLine, statusLabel, timeOf, verdictCell, verdictText } from './labels.js';
import { resizable } from './splitter.js';

const token = document.querySelector('meta[name="inbox-token"]')?.getAttribute('content') ?? '';
const records = new Map<string, InboxRecord>();
/** Ids in arrival order; the list shows them newest first. */
const order: string[] = [];
const selected = new Set<string>();
let routes: Array<[string, string]> = [];
let current: string | null = null;

const ui = {
  where: byId('where', HTMLElement),
  live: byId('live', HTMLElement),
  filterText: byId('filter-text', HTMLInputElement),
  filterType: byId('filter-type', HTMLSelectElement),
  filterStatus: byId('filter-status', HTMLSelectElement),
  filterVerdict: byId('filter-verdict', HTMLSelectElement),
  selectAll: byId('select-all', HTMLInputElement),
  count: byId('count', HTMLElement),
  rows: byId('rows', HTMLTableSectionElement),
  empty: byId('empty', HTMLElement),
  emptyUrl: byId('empty-url', HTMLElement),
  emptyCommand: byId('empty-command', HTMLElement),
  noMatch: byId('no-match', HTMLElement),
  placeholder: byId('detail-placeholder', HTMLElement),
  detail: byId('detail', HTMLElement),
  title: byId('detail-title', HTMLElement),
  verdict: byId('detail-verdict', HTMLElement),
  notes: byId('detail-notes', HTMLUListElement),
  meta: byId('detail-meta', HTMLElement),
  replay: byId('replay', HTMLButtonElement),
  edit: byId('edit', HTMLButtonElement),
  target: byId('target', HTMLElement),
  editor: byId('editor', HTMLElement),
  editBody: byId('edit-body', HTMLTextAreaElement),
  diff: byId('diff', HTMLElement),
  sendEdit: byId('send-edit', HTMLButtonElement),
  cancelEdit: byId('cancel-edit', HTMLButtonElement),
  result: byId('action-result', HTMLElement),
  sends: byId('sends', HTMLOListElement),
  headers: byId('headers', HTMLTableElement),
  bodySize: byId('body-size', HTMLElement),
  bodyRaw: byId('body-raw', HTMLElement),
  bodyPretty: byId('body-pretty', HTMLElement),
  help: byId('help', HTMLDialogElement),
};

function shown(r: InboxRecord): boolean {
  const text = ui.filterText.value.trim().toLowerCase();
  const t = ui.filterType.value;
  const s = ui.filterStatus.value;
  const v = ui.filterVerdict.value;
  const haystack = [r.id, r.event_id, r.event_type, r.resource_id, r.status].join(' ').toLowerCase();
  return (!t || r.event_type === t) && (!s || r.status === s) && (!v || verdictText(r) === v) && (!text || haystack.includes(text));
}

function addOption(select: HTMLSelectElement, value: string | null, label = value): void {
  if (!value || Array.from(select.options).some((o) => o.value === value)) return;
  const o = el('option', label);
  o.value = value;
  o.title = value;
  select.appendChild(o);
}

const lastSend = (r: InboxRecord): InboxSend | undefined => r.sends.at(-1);

function row(r: InboxRecord): HTMLTableRowElement {
  const tr = el('tr', null, current === r.id ? 'current' : '');
  tr.dataset.id = r.id;
  const box = el('input');
  box.type = 'checkbox';
  box.checked = selected.has(r.id);
  box.setAttribute('aria-label', `select ${r.event_id ?? r.id}`);
  box.addEventListener('change', () => (box.checked ? selected.add(r.id) : selected.delete(r.id)));
  const select = el('td', null, 'select');
  select.appendChild(box);

  const verdict = cell(verdictCell(r), `verdict ${isRefused(r) ? 'invalid' : 'valid'}`, `${verdictCell(r)}: ${r.verdict.message}`);
  const type = cell('', 'type', r.event_type ?? 'no event_type');
  const open = el('button', null, 'open');
  open.appendChild(el('span', r.event_type ?? '(no event_type)'));
  open.type = 'button';
  // The visible text first (what a voice user says), then which delivery it opens.
  open.setAttribute('aria-label', `${open.textContent ?? ''}: open delivery ${r.event_id ?? r.id}`);
  open.addEventListener('click', (e) => {
    e.stopPropagation();
    openDelivery(r.id, true);
  });
  type.appendChild(open);
  const status = r.status === null ? cell('-', 'status', 'no status') : cell(statusLabel(r.status), 'status', `${statusLabel(r.status)} (${r.status})`);
  const event = cell(r.event_id ?? '-', 'event', r.event_id ?? 'no event_id');
  const flags = [r.catch_up && 'catch-up', r.duplicate && 'duplicate', r.out_of_order && 'out of order'].filter((f): f is string => Boolean(f));
  for (const f of flags.reverse()) event.prepend(el('span', f, 'flag'));
  if (flags.length) event.title = `${flags.join(', ')}: ${event.title}`;
  const f = lastSend(r);
  const forward = f
    ? cell(resultText(f.result), `forward${isAccepted(f.result) ? '' : ' failed'}`, `${sendLine(f)} in ${Math.round(f.ms)} ms`)
    : cell(r.target ? 'queued' : '-', 'forward', r.target ? `forward to ${r.target} queued` : 'not forwarded');
  tr.append(select, cell(timeOf(r.received_at), 'time', r.received_at), verdict, type, status, cell(r.resource_id ?? '-', 'resource'), event, forward);
  tr.addEventListener('click', (e) => {
    if (!(e.target instanceof HTMLInputElement)) openDelivery(r.id, false);
  });
  return tr;
}

function renderList(): void {
  const rows: HTMLTableRowElement[] = [];
  for (const id of [...order].reverse()) {
    const r = records.get(id)!;
    addOption(ui.filterType, r.event_type);
    addOption(ui.filterStatus, r.status, r.status === null ? null : statusLabel(r.status));
    if (shown(r)) rows.push(row(r));
  }
  ui.rows.replaceChildren(...rows);
  ui.empty.hidden = order.length > 0;
  ui.noMatch.hidden = order.length === 0 || rows.length > 0;
  ui.count.textContent = `${rows.length} shown of ${order.length}`;
}

function targetOf(type: string | null): string | null {
  let any: string | null = null;
  for (const [t, url] of routes) {
    if (t === type) return url;
    if (t === '*') any = url;
  }
  return any;
}

function openDelivery(id: string, focus: boolean): void {
  const r = records.get(id);
  if (!r) return;
  if (current !== id) {
    ui.editor.hidden = true;
    ui.result.textContent = '';
  }
  current = id;
  ui.placeholder.hidden = true;
  ui.detail.hidden = false;
  ui.title.textContent = `${r.event_type ?? 'delivery'} ${r.event_id ?? r.id}`;
  ui.verdict.textContent = r.verdict.message;
  ui.verdict.className = r.verdict.valid ? 'valid' : 'invalid';
  const notes = r.verdict.notes.map((n) => el('li', n));
  if (r.verdict.diagnosis) notes.push(el('li', `diagnosis: ${r.verdict.diagnosis}`));
  if (r.auth)
    notes.push(
      el(
        'li',
        r.auth.authorized ? 'authorized (its credentials passed)' : `unauthorized: ${r.auth.reason ?? ''} (answered 401, not forwarded)`,
        r.auth.authorized ? '' : 'invalid',
      ),
    );
  ui.notes.replaceChildren(...notes);
  const meta = [`${r.method} ${r.path}`, `received ${r.received_at}`];
  if (r.status) meta.push(`status ${r.status} (${statusLabel(r.status)})`);
  if (r.catch_up) meta.push('catch-up (replayed from a delivery log on start)');
  if (r.duplicate) meta.push('duplicate (ignored)');
  if (r.out_of_order) meta.push('out of order');
  ui.meta.textContent = meta.join(' · ');
  const target = targetOf(r.event_type);
  ui.target.textContent = target ? `to ${target}` : 'no forward target: start listen with --forward-to or --route';
  ui.replay.disabled = !target;
  ui.edit.disabled = !target;
  ui.headers.tBodies[0]!.replaceChildren(
    ...r.headers.map(([name, value]) => {
      const tr = el('tr');
      tr.append(cell(name), cell(value));
      return tr;
    }),
  );
  const decoded = decodeBody(r.body_base64);
  ui.bodySize.textContent = `(${decoded.size} bytes${decoded.utf8 ? '' : ', not UTF-8'})`;
  renderRaw(ui.bodyRaw, r.body_base64);
  ui.bodyPretty.textContent = pretty(decoded.text) ?? '(not JSON)';
  const sends = r.sends.map((s) => el('li', `${s.at} ${sendLine(s)} in ${Math.round(s.ms)} ms`, 'send'));
  ui.sends.replaceChildren(...(sends.length ? sends : [el('li', r.target ? 'forward queued' : 'not forwarded')]));
  for (const tr of ui.rows.rows) tr.className = tr.dataset.id === id ? 'current' : '';
  if (focus) ui.title.focus();
}

function updateDiff(): void {
  const r = current === null ? undefined : records.get(current);
  if (!r) return;
  const lines = diffLines(decodeBody(r.body_base64).text, ui.editBody.value);
  if (!lines.some(([mark]) => mark !== ' ')) return ui.diff.replaceChildren(el('span', '(no change)', 'same'));
  ui.diff.replaceChildren(...lines.map(([mark, text]) => el('span', `${mark} ${text}`, mark === '+' ? 'add' : mark === '-' ? 'del' : 'same')));
}

async function post(path: string, body: unknown): Promise<InboxSend> {
  const res = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Inbox-Token': token },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  const json = (await res.json()) as InboxSend | { error?: string };
  if (!res.ok) throw new Error(('error' in json && json.error) || `HTTP ${res.status}`);
  return json as InboxSend;
}

function act(path: string, body: unknown, pending: string): void {
  ui.result.textContent = pending;
  post(path, body).then(
    (send) => (ui.result.textContent = sendLine(send)),
    (e: unknown) => (ui.result.textContent = `failed: ${e instanceof Error ? e.message : String(e)}`),
  );
}

function replay(): void {
  if (current === null || ui.replay.disabled) return;
  act(`/api/deliveries/${encodeURIComponent(current)}/replay`, {}, 'replaying…');
}

function openEditor(): void {
  const r = current === null ? undefined : records.get(current);
  if (!r || ui.edit.disabled) return;
  ui.editBody.value = decodeBody(r.body_base64).text;
  ui.editor.hidden = false;
  updateDiff();
  ui.editBody.focus();
}

function closeEditor(): void {
  ui.editor.hidden = true;
  ui.edit.focus();
}

function upsert(r: InboxRecord, isNew: boolean): void {
  if (!records.has(r.id)) order.push(r.id);
  records.set(r.id, r);
  renderList();
  if (current === r.id) openDelivery(r.id, false);
  if (isNew) ui.live.textContent = `live: ${order.length} deliveries`;
}

function exportAs(format: 'ndjson' | 'har'): void {
  const visible = order.filter((id) => shown(records.get(id)!));
  const picked = visible.filter((id) => selected.has(id));
  const ids = picked.length ? picked : visible;
  const a = el('a');
  a.href = `/api/export?format=${format}&ids=${encodeURIComponent(ids.join(','))}&token=${encodeURIComponent(token)}`;
  a.download = `deliveries.${format}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

function connect(): void {
  const source = new EventSource(`/api/events?token=${encodeURIComponent(token)}`);
  source.addEventListener('open', () => (ui.live.textContent = `live: ${order.length} deliveries`));
  source.addEventListener('delivery', (e) => upsert(JSON.parse((e as MessageEvent<string>).data) as InboxRecord, true));
  source.addEventListener('update', (e) => upsert(JSON.parse((e as MessageEvent<string>).data) as InboxRecord, false));
  source.addEventListener('error', () => {
    ui.live.textContent = source.readyState === EventSource.CLOSED ? 'disconnected: reload the page once listen runs again' : 'reconnecting…';
  });
}

/** j/k: the next or previous delivery shown, opened and its row focused. */
function move(step: 1 | -1): void {
  const rows = Array.from(ui.rows.rows);
  if (!rows.length) return;
  const at = rows.findIndex((tr) => tr.dataset.id === current);
  const next = rows[at < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, at + step))]!;
  openDelivery(next.dataset.id!, false);
  next.querySelector<HTMLButtonElement>('button.open')?.focus();
}

function onKey(e: KeyboardEvent): void {
  if (e.key === 'Escape' && !ui.editor.hidden) return closeEditor();
  if (!isPageKey(e) || ui.help.open) return;
  const onButton = e.target instanceof HTMLButtonElement;
  const actions: Record<string, () => void> = {
    j: () => move(1),
    k: () => move(-1),
    r: replay,
    e: openEditor,
    '/': () => ui.filterText.focus(),
    '?': () => ui.help.showModal(),
    Enter: () => current !== null && openDelivery(current, true),
  };
  const action = actions[e.key];
  if (!action || (e.key === 'Enter' && onButton)) return;
  e.preventDefault();
  action();
}

function describeWhere(data: InboxListing): void {
  const forwarding = routes.length ? `; forwarding ${routes.map(([t, url]) => `${t} to ${url}`).join(', ')}` : '; not forwarding';
  ui.where.textContent = `Listening on ${data.listen_url}${forwarding}`;
  ui.emptyUrl.textContent = data.listen_url;
  ui.emptyCommand.textContent = data.test_command;
}

async function start(): Promise<void> {
  const res = await fetch('/api/deliveries', { headers: { 'X-Inbox-Token': token } });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const data = (await res.json()) as InboxListing;
  routes = data.routes;
  describeWhere(data);
  for (const r of data.deliveries) {
    if (!records.has(r.id)) order.push(r.id);
    records.set(r.id, r);
  }
  renderList();
  connect();
}

for (const filter of [ui.filterType, ui.filterStatus, ui.filterVerdict]) filter.addEventListener('change', renderList);
ui.filterText.addEventListener('input', renderList);
ui.filterText.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' || e.key === 'Enter') ui.filterText.blur();
});
byId('clear-filters', HTMLButtonElement).addEventListener('click', () => {
  ui.filterText.value = '';
  for (const filter of [ui.filterType, ui.filterStatus, ui.filterVerdict]) filter.value = '';
  renderList();
});
ui.selectAll.addEventListener('change', () => {
  for (const id of order) {
    if (!shown(records.get(id)!)) continue;
    if (ui.selectAll.checked) selected.add(id);
    else selected.delete(id);
  }
  renderList();
});
byId('export-ndjson', HTMLButtonElement).addEventListener('click', () => exportAs('ndjson'));
byId('export-har', HTMLButtonElement).addEventListener('click', () => exportAs('har'));
byId('help-open', HTMLButtonElement).addEventListener('click', () => ui.help.showModal());
ui.replay.addEventListener('click', replay);
ui.edit.addEventListener('click', openEditor);
ui.editBody.addEventListener('input', updateDiff);
ui.cancelEdit.addEventListener('click', closeEditor);
ui.sendEdit.addEventListener('click', () => {
  if (current === null) return;
  const signing = document.querySelector<HTMLInputElement>('input[name="signing"]:checked')?.value ?? 'resigned';
  act(`/api/deliveries/${encodeURIComponent(current)}/edit`, { body: ui.editBody.value, signing }, 'sending…');
});
document.addEventListener('keydown', onKey);
resizable(byId('splitter', HTMLElement), byId('panes', HTMLElement));
start().catch((e: unknown) => (ui.live.textContent = `could not load the inbox: ${e instanceof Error ? e.message : String(e)}`));
