// The list of deliveries: one row each, newest first, those the filter lets through; a row's
// cells never wrap (./dom.ts cell), and j/k move the open delivery along the rows shown.
import type { InboxRecord } from '../store.js';
import { cell, el } from './dom.js';
import { matchesFilter, offerChoices } from './filter.js';
import { isAccepted, isRefused, resultText, sendLine, statusLabel, timeOf, verdictCell } from './labels.js';
import type { InboxState } from './state.js';
import type { InboxUi } from './ui.js';

/** Opens a delivery in the detail pane; focus moves there when the user asked for it. */
export type OpenDelivery = (id: string, focus: boolean) => void;

export interface DeliveryList {
  render: () => void;
  /** The next or previous delivery shown, opened and its row focused. */
  move: (step: 1 | -1) => void;
}

function checkbox(state: InboxState, r: InboxRecord): HTMLTableCellElement {
  const box = el('input');
  box.type = 'checkbox';
  box.checked = state.selected.has(r.id);
  box.setAttribute('aria-label', `select ${r.event_id ?? r.id}`);
  box.addEventListener('change', () => (box.checked ? state.selected.add(r.id) : state.selected.delete(r.id)));
  const select = el('td', null, 'select');
  select.appendChild(box);
  return select;
}

function typeCell(r: InboxRecord, open: OpenDelivery): HTMLTableCellElement {
  const type = cell('', 'type', r.event_type ?? 'no event_type');
  const button = el('button', null, 'open');
  button.appendChild(el('span', r.event_type ?? '(no event_type)'));
  button.type = 'button';
  // The visible text first (what a voice user says), then which delivery it opens.
  button.setAttribute('aria-label', `${button.textContent ?? ''}: open delivery ${r.event_id ?? r.id}`);
  button.addEventListener('click', (e) => {
    e.stopPropagation();
    open(r.id, true);
  });
  type.appendChild(button);
  return type;
}

function eventCell(r: InboxRecord): HTMLTableCellElement {
  const event = cell(r.event_id ?? '-', 'event', r.event_id ?? 'no event_id');
  const flags = [r.catch_up && 'catch-up', r.duplicate && 'duplicate', r.out_of_order && 'out of order'].filter((f): f is string => Boolean(f));
  for (const f of flags.reverse()) event.prepend(el('span', f, 'flag'));
  if (flags.length) event.title = `${flags.join(', ')}: ${event.title}`;
  return event;
}

/** The last forward's result, or whether one is still to come. */
function forwardCell(r: InboxRecord): HTMLTableCellElement {
  const f = r.sends.at(-1);
  return f
    ? cell(resultText(f.result), `forward${isAccepted(f.result) ? '' : ' failed'}`, `${sendLine(f)} in ${Math.round(f.ms)} ms`)
    : cell(r.target ? 'queued' : '-', 'forward', r.target ? `forward to ${r.target} queued` : 'not forwarded');
}

function row(state: InboxState, r: InboxRecord, open: OpenDelivery): HTMLTableRowElement {
  const tr = el('tr', null, state.current === r.id ? 'current' : '');
  tr.dataset.id = r.id;
  const verdict = cell(verdictCell(r), `verdict ${isRefused(r) ? 'invalid' : 'valid'}`, `${verdictCell(r)}: ${r.verdict.message}`);
  const status = r.status === null ? cell('-', 'status', 'no status') : cell(statusLabel(r.status), 'status', `${statusLabel(r.status)} (${r.status})`);
  const time = cell(timeOf(r.received_at), 'time', r.received_at);
  tr.append(checkbox(state, r), time, verdict, typeCell(r, open), status, cell(r.resource_id ?? '-', 'resource'), eventCell(r), forwardCell(r));
  tr.addEventListener('click', (e) => {
    if (!(e.target instanceof HTMLInputElement)) open(r.id, false);
  });
  return tr;
}

export function deliveryList(ui: InboxUi, state: InboxState, open: OpenDelivery): DeliveryList {
  return {
    render() {
      const rows: HTMLTableRowElement[] = [];
      for (const id of [...state.order].reverse()) {
        const r = state.records.get(id)!;
        offerChoices(ui, r);
        if (matchesFilter(ui, r)) rows.push(row(state, r, open));
      }
      ui.rows.replaceChildren(...rows);
      ui.empty.hidden = state.order.length > 0;
      ui.noMatch.hidden = state.order.length === 0 || rows.length > 0;
      ui.count.textContent = `${rows.length} shown of ${state.order.length}`;
    },
    move(step) {
      const rows = Array.from(ui.rows.rows);
      if (!rows.length) return;
      const at = rows.findIndex((tr) => tr.dataset.id === state.current);
      const next = rows[at < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, at + step))]!;
      open(next.dataset.id!, false);
      next.querySelector<HTMLButtonElement>('button.open')?.focus();
    },
  };
}
