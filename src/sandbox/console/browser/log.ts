// The console's live request log: newest first, at most LOG_ROWS rows; the text filter and
// "only faults" hide rows, they drop nothing; j/k walk the rows shown.
import type { RequestLogEntry } from '../../context.js';
import { tail, text, tr } from './cells.js';
import { httpStatusText } from './text.js';

const LOG_ROWS = 500;

export interface RequestLog {
  add: (entry: RequestLogEntry) => void;
  /** Applies the filters again to every row. */
  refilter: () => void;
  clear: () => void;
  /** The next or previous row shown, highlighted and focused. */
  move: (step: 1 | -1) => void;
  current: () => HTMLTableRowElement | null;
}

export function requestLog(table: HTMLTableElement, empty: HTMLElement, filter: HTMLInputElement, faultsOnly: HTMLInputElement): RequestLog {
  const body = table.tBodies[0]!;
  const show = (row: HTMLTableRowElement) => {
    const needle = filter.value.trim().toLowerCase();
    row.hidden = (faultsOnly.checked && !row.classList.contains('fault')) || (needle !== '' && !(row.textContent ?? '').toLowerCase().includes(needle));
  };
  const emptied = () => (empty.hidden = body.rows.length > 0);
  emptied();
  return {
    add(e) {
      const status = e.status === 0 ? 'dropped' : String(e.status);
      const row = tr(
        [
          text(e.seq, 'num', `request ${e.seq} at ${new Date(e.at).toISOString()}`),
          text(e.method),
          tail(e.path),
          text(status, 'num', e.status === 0 ? 'the connection was dropped' : httpStatusText(e.status)),
          text(e.latencyMs, 'num', `${e.latencyMs} ms`),
          text(e.fault ?? '', 'fault'),
          text(e.route ? `${e.route} #${e.n ?? ''}` : '', 'route'),
          text(e.userAgent ?? '', 'agent'),
        ],
        e.fault ? 'fault' : '',
      );
      row.tabIndex = -1;
      show(row);
      body.prepend(row);
      while (body.rows.length > LOG_ROWS) body.lastElementChild?.remove();
      emptied();
    },
    refilter: () => Array.from(body.rows).forEach(show),
    clear() {
      body.replaceChildren();
      emptied();
    },
    move(step) {
      const rows = Array.from(body.rows).filter((r) => !r.hidden);
      if (!rows.length) return;
      const at = rows.findIndex((r) => r.classList.contains('current'));
      const next = rows[at < 0 ? 0 : Math.min(rows.length - 1, Math.max(0, at + step))]!;
      for (const r of rows) r.classList.remove('current');
      next.classList.add('current');
      next.focus();
    },
    current: () => body.querySelector<HTMLTableRowElement>('tr.current'),
  };
}
