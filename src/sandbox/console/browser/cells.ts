// The console's table cells: text from the server with control and bidi characters made
// visible, never wrapped (a long value ends in an ellipsis and shows whole in its title).
import { cell, el } from '../../../webhooks/inbox/browser/dom.js';
import { visible } from './text.js';

export const text = (value: unknown, className?: string, title?: string) => cell(visible(value), className, title === undefined ? undefined : visible(title));

/** A path cut at its start when it does not fit: its end (…/stores) is what tells requests apart. */
export function tail(value: string): HTMLTableCellElement {
  const td = cell('', 'mono tail', visible(value));
  td.appendChild(el('span', visible(value)));
  return td;
}

/** A status in words, the enum beside it in the title. */
export const labelled = (label: string, value: string) => text(label, 'status', `${label} (${value})`);

export function tr(cells: HTMLTableCellElement[], className = ''): HTMLTableRowElement {
  const row = el('tr', null, className);
  row.append(...cells);
  return row;
}
