// Picking deliveries to export: "select all" ticks (or unticks) the rows the filter shows,
// and an export takes the ticked rows shown, or every row shown when none is ticked.
import type { InboxApi } from './api.js';
import { byId, el } from './dom.js';
import { matchesFilter } from './filter.js';
import type { InboxState } from './state.js';
import type { InboxUi } from './ui.js';

function shownIds(ui: InboxUi, state: InboxState): string[] {
  return state.order.filter((id) => matchesFilter(ui, state.records.get(id)!));
}

/** Downloads through a link: the browser saves the file, the page stays. */
function exportAs(ui: InboxUi, state: InboxState, api: InboxApi, format: 'ndjson' | 'har'): void {
  const visible = shownIds(ui, state);
  const picked = visible.filter((id) => state.selected.has(id));
  const a = el('a');
  a.href = api.exportUrl(format, picked.length ? picked : visible);
  a.download = `deliveries.${format}`;
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export function wireSelection(ui: InboxUi, state: InboxState, api: InboxApi, render: () => void): void {
  ui.selectAll.addEventListener('change', () => {
    for (const id of shownIds(ui, state)) {
      if (ui.selectAll.checked) state.selected.add(id);
      else state.selected.delete(id);
    }
    render();
  });
  byId('export-ndjson', HTMLButtonElement).addEventListener('click', () => exportAs(ui, state, api, 'ndjson'));
  byId('export-har', HTMLButtonElement).addEventListener('click', () => exportAs(ui, state, api, 'har'));
}
