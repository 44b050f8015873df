// The elements of the inbox page (../page.ts) the script fills in and listens to, looked up once.
import { byId } from './dom.js';

export function inboxUi() {
  return {
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
}

export type InboxUi = ReturnType<typeof inboxUi>;
