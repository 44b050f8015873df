// The list's filter: free text over the ids, type and status, and three selects whose options
// grow with the deliveries seen (a status shown as its label, the enum in the tooltip).
import type { InboxRecord } from '../store.js';
import { byId, el } from './dom.js';
import { statusLabel, verdictText } from './labels.js';
import type { InboxUi } from './ui.js';

type FilterFields = Pick<InboxUi, 'filterText' | 'filterType' | 'filterStatus' | 'filterVerdict'>;

export function matchesFilter(ui: FilterFields, r: InboxRecord): boolean {
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

/** Offers this delivery's type and status in the selects, once each. */
export function offerChoices(ui: FilterFields, r: InboxRecord): void {
  addOption(ui.filterType, r.event_type);
  addOption(ui.filterStatus, r.status, r.status === null ? null : statusLabel(r.status));
}

/** Calls refilter on every change of the filter, and on "clear filters". */
export function wireFilter(ui: FilterFields, refilter: () => void): void {
  const selects = [ui.filterType, ui.filterStatus, ui.filterVerdict];
  for (const filter of selects) filter.addEventListener('change', refilter);
  ui.filterText.addEventListener('input', refilter);
  // Enter or Escape hands the keyboard back to the page's shortcuts.
  ui.filterText.addEventListener('keydown', (e) => {
    if (e.key === 'Escape' || e.key === 'Enter') ui.filterText.blur();
  });
  byId('clear-filters', HTMLButtonElement).addEventListener('click', () => {
    ui.filterText.value = '';
    for (const filter of selects) filter.value = '';
    refilter();
  });
}
