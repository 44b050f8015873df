// The detail pane: one delivery whole (verdict and its notes, headers, the body raw and pretty,
// every forward of it), and whether it can be replayed (only where listen forwards its type).
import type { InboxRecord } from '../store.js';
import { decodeBody, pretty, renderRaw } from './body.js';
import { cell, el } from './dom.js';
import { sendLine, statusLabel } from './labels.js';
import { targetOf, type InboxState } from './state.js';
import type { InboxUi } from './ui.js';

function notesOf(r: InboxRecord): HTMLLIElement[] {
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
  return notes;
}

function metaOf(r: InboxRecord): string {
  const meta = [`${r.method} ${r.path}`, `received ${r.received_at}`];
  if (r.status) meta.push(`status ${r.status} (${statusLabel(r.status)})`);
  if (r.catch_up) meta.push('catch-up (replayed from a delivery log on start)');
  if (r.duplicate) meta.push('duplicate (ignored)');
  if (r.out_of_order) meta.push('out of order');
  return meta.join(' · ');
}

function showBody(ui: InboxUi, r: InboxRecord): void {
  const decoded = decodeBody(r.body_base64);
  ui.bodySize.textContent = `(${decoded.size} bytes${decoded.utf8 ? '' : ', not UTF-8'})`;
  renderRaw(ui.bodyRaw, r.body_base64);
  ui.bodyPretty.textContent = pretty(decoded.text) ?? '(not JSON)';
}

/** Opens a delivery in the pane (again, to show an update); focus moves to its title when asked. */
export function openDelivery(ui: InboxUi, state: InboxState, id: string, focus: boolean): void {
  const r = state.records.get(id);
  if (!r) return;
  // An edit in progress belongs to the delivery it was started on.
  if (state.current !== id) {
    ui.editor.hidden = true;
    ui.result.textContent = '';
  }
  state.current = id;
  ui.placeholder.hidden = true;
  ui.detail.hidden = false;
  ui.title.textContent = `${r.event_type ?? 'delivery'} ${r.event_id ?? r.id}`;
  ui.verdict.textContent = r.verdict.message;
  ui.verdict.className = r.verdict.valid ? 'valid' : 'invalid';
  ui.notes.replaceChildren(...notesOf(r));
  ui.meta.textContent = metaOf(r);
  const target = targetOf(state, r.event_type);
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
  showBody(ui, r);
  const sends = r.sends.map((s) => el('li', `${s.at} ${sendLine(s)} in ${Math.round(s.ms)} ms`, 'send'));
  ui.sends.replaceChildren(...(sends.length ? sends : [el('li', r.target ? 'forward queued' : 'not forwarded')]));
  for (const tr of ui.rows.rows) tr.className = tr.dataset.id === id ? 'current' : '';
  if (focus) ui.title.focus();
}
