// Records of a log or a verdict (webhooks): one readable line each, or one JSON object each
// with -o json/ndjson. They are not resource lists, so there is no table and no CSV.
import type { Terminal } from '../base/io.js';
import { forStream, jsonForStream } from './terminal-text.js';

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
