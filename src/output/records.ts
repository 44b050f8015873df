// Records of a log or a verdict (webhooks): one readable line each, or one JSON object each
// with -o json/ndjson. They are not resource lists, so there is no table and no CSV.
// And the table of a list in accessible mode: each row a record of `Header: value` lines.
import type { Terminal } from '../base/io.js';
import type { View } from './columns.js';
import { forStream, jsonForStream } from './terminal-text.js';

/**
 * Rows as records, a blank line between them: `Campaign ID: ...` / `Name: ...`, the table's
 * columns in its order (-o wide: every column), each value whole. Headers in sentence case:
 * a screen reader spells out words in capitals.
 */
export function renderRecords<T>(view: View<T>, rows: readonly T[], { wide = false } = {}): string {
  const columns = view.columns.filter((c) => wide || !c.csvOnly);
  const labels = columns.map((c) => sentenceCase(c.header));
  return `${rows.map((row) => columns.map((c, i) => `${labels[i]}: ${valueOrNone((c.table ?? c.csv)(row))}`).join('\n')).join('\n\n')}\n`;
}

/** An empty cell is said, not left silent. */
function valueOrNone(value: string | undefined): string {
  return value === undefined || value.trim() === '' ? '(none)' : value;
}

/** Words a screen reader should spell out, kept in capitals. */
const ACRONYMS = new Set(['ID', 'IDS', 'URL', 'API', 'CSV', 'ETA', 'UTC', 'CPM', 'CPC', 'CTR', 'GTIN', 'HTTP', 'IP']);

/** `CAMPAIGN ID` -> `Campaign ID`, `EFFECTIVE STATUS` -> `Effective status`. */
export function sentenceCase(header: string): string {
  if (header !== header.toUpperCase()) return header;
  return header
    .split(' ')
    .map((word, i) => {
      if (ACRONYMS.has(word.replace(/[^A-Z]/g, ''))) return word;
      const lower = word.toLowerCase();
      return i === 0 ? lower.charAt(0).toUpperCase() + lower.slice(1) : lower;
    })
    .join(' ');
}

export function wantsJson(term: Pick<Terminal, 'globals'>): boolean {
  return term.globals.output === 'json' || term.globals.output === 'ndjson';
}

/**
 * Writes one record: its JSON, else its readable line. A verdict is indented with -o json;
 * a log (`log: true`: events, attempts, possibly followed live) is one object per line either way.
 */
export function writeRecord(term: Terminal, record: object, line: () => string, { log = false } = {}): void {
  if (wantsJson(term)) {
    const json = JSON.stringify(record, null, term.globals.output === 'json' && !log ? 2 : undefined);
    term.io.stdout.write(`${jsonForStream(json, term.io.stdoutIsTTY)}\n`);
  } else term.io.stdout.write(`${forStream(line(), term.io.stdoutIsTTY)}\n`);
}
