// The page's keyboard: j/k walk the list, Enter focuses the open delivery, r replays it, e edits
// it, / goes to the filter, ? opens the overlay that lists these keys (also its button), and
// Escape closes the edit form. Keys typed into a field stay there (./dom.ts isPageKey).
import { byId, isPageKey } from './dom.js';
import type { DeliveryList, OpenDelivery } from './list.js';
import type { ReplayActions } from './replay.js';
import type { InboxState } from './state.js';
import type { InboxUi } from './ui.js';

export interface KeyTargets {
  list: DeliveryList;
  open: OpenDelivery;
  replay: ReplayActions;
}

export function wireKeys(ui: InboxUi, state: InboxState, to: KeyTargets): void {
  const onKey = (e: KeyboardEvent): void => {
    if (e.key === 'Escape' && !ui.editor.hidden) return to.replay.closeEditor();
    if (!isPageKey(e) || ui.help.open) return;
    const onButton = e.target instanceof HTMLButtonElement;
    const actions: Record<string, () => void> = {
      j: () => to.list.move(1),
      k: () => to.list.move(-1),
      r: to.replay.replay,
      e: to.replay.openEditor,
      '/': () => ui.filterText.focus(),
      '?': () => ui.help.showModal(),
      Enter: () => state.current !== null && to.open(state.current, true),
    };
    const action = actions[e.key];
    // Enter on a button is the button's own click.
    if (!action || (e.key === 'Enter' && onButton)) return;
    e.preventDefault();
    action();
  };
  document.addEventListener('keydown', onKey);
  byId('help-open', HTMLButtonElement).addEventListener('click', () => ui.help.showModal());
}
