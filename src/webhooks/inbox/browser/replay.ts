// Replaying the open delivery, as it came or edited: the edit form shows a line diff against
// the original as one types, and sends it re-signed or with the original signature.
import type { InboxApi } from './api.js';
import { decodeBody, diffLines } from './body.js';
import { el } from './dom.js';
import { sendLine } from './labels.js';
import type { InboxState } from './state.js';
import type { InboxUi } from './ui.js';

export interface ReplayActions {
  replay: () => void;
  openEditor: () => void;
  closeEditor: () => void;
}

function updateDiff(ui: InboxUi, state: InboxState): void {
  const r = state.current === null ? undefined : state.records.get(state.current);
  if (!r) return;
  const lines = diffLines(decodeBody(r.body_base64).text, ui.editBody.value);
  if (!lines.some(([mark]) => mark !== ' ')) return ui.diff.replaceChildren(el('span', '(no change)', 'same'));
  ui.diff.replaceChildren(...lines.map(([mark, text]) => el('span', `${mark} ${text}`, mark === '+' ? 'add' : mark === '-' ? 'del' : 'same')));
}

/** Wires the replay button and the edit form; the actions are also the keyboard's (r, e, Escape). */
export function replayForm(ui: InboxUi, state: InboxState, api: InboxApi): ReplayActions {
  const act = (path: string, body: unknown, pending: string) => {
    ui.result.textContent = pending;
    api.send(path, body).then(
      (send) => (ui.result.textContent = sendLine(send)),
      (e: unknown) => (ui.result.textContent = `failed: ${e instanceof Error ? e.message : String(e)}`),
    );
  };
  const actions: ReplayActions = {
    replay() {
      if (state.current === null || ui.replay.disabled) return;
      act(`/api/deliveries/${encodeURIComponent(state.current)}/replay`, {}, 'replaying…');
    },
    openEditor() {
      const r = state.current === null ? undefined : state.records.get(state.current);
      if (!r || ui.edit.disabled) return;
      ui.editBody.value = decodeBody(r.body_base64).text;
      ui.editor.hidden = false;
      updateDiff(ui, state);
      ui.editBody.focus();
    },
    closeEditor() {
      ui.editor.hidden = true;
      ui.edit.focus();
    },
  };
  ui.replay.addEventListener('click', actions.replay);
  ui.edit.addEventListener('click', actions.openEditor);
  ui.editBody.addEventListener('input', () => updateDiff(ui, state));
  ui.cancelEdit.addEventListener('click', actions.closeEditor);
  ui.sendEdit.addEventListener('click', () => {
    if (state.current === null) return;
    const signing = document.querySelector<HTMLInputElement>('input[name="signing"]:checked')?.value ?? 'resigned';
    act(`/api/deliveries/${encodeURIComponent(state.current)}/edit`, { body: ui.editBody.value, signing }, 'sending…');
  });
  return actions;
}
