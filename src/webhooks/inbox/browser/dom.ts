// Small DOM helpers of the inbox page. Text reaches the document through textContent only.

/** The element with this id, checked to be of the expected kind (a page and script out of step fail loudly). */
export function byId<T extends HTMLElement>(id: string, kind: new () => T): T {
  const found = document.getElementById(id);
  if (!(found instanceof kind)) throw new Error(`the inbox page has no ${kind.name} #${id}`);
  return found;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string | number | null, className?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (text !== undefined && text !== null) e.textContent = String(text);
  if (className) e.className = className;
  return e;
}

/** A table cell that never wraps: what does not fit ends in an ellipsis, and shows whole on hover. */
export function cell(text: string, className?: string, title = text): HTMLTableCellElement {
  const td = el('td', text, className);
  td.title = title;
  return td;
}

/** A keystroke meant for the page, not typed into a field or chorded with a modifier. */
export function isPageKey(e: KeyboardEvent): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey) return false;
  const t = e.target;
  if (!(t instanceof HTMLElement)) return true;
  return !(t instanceof HTMLInputElement || t instanceof HTMLTextAreaElement || t instanceof HTMLSelectElement || t.isContentEditable);
}
