// Headers as [name, value] pairs, names as sent: finding one by name (case-insensitively,
// the value as sent), and reading a raw HTTP header block as copied from a proxy, `curl -v`
// or a log. The block accepts "Name: value" lines (CRLF or LF, an optional request or status
// line first, curl's "> " / "< " prefixes, folded continuation lines) and quoted
// `"name": "value"` entries of a logged headers object. Stops at the blank line that ends a
// header block.
import { REDACTED } from '../http/redact.js';

export type HeaderPairs = ReadonlyArray<readonly [string, string]>;

/** Whether a header is called `name` (header names are case-insensitive). */
export function isHeader(header: string, name: string): boolean {
  return header.toLowerCase() === name.toLowerCase();
}

/** The first value of the header `name`, untrimmed (whitespace around it is judged as sent), or undefined. */
export function headerValue(headers: HeaderPairs, name: string): string | undefined {
  return headers.find(([n]) => isHeader(n, name))?.[1];
}

/** Node's `rawHeaders` (name, value, name, value...) as pairs, in order. */
export function headerPairs(rawHeaders: readonly string[]): Array<[string, string]> {
  const headers: Array<[string, string]> = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) headers.push([rawHeaders[i]!, rawHeaders[i + 1]!]);
  return headers;
}

export interface HeaderBlock {
  /** Every header found, in order, names as written. */
  headers: Array<[string, string]>;
  /** Values of one header, matched case-insensitively. */
  get(name: string): string[];
}

const START_LINE = /^(?:[A-Z]+ \S+ HTTP\/\d(?:\.\d)?|HTTP\/\d(?:\.\d)? \d{3}\b.*)$/;
const FIELD = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):(.*)$/;
const QUOTED = /^\s*["']([!#$%&*+.^_`|~0-9A-Za-z-]+)["']\s*(?::|=>?)\s*["'](.*?)["']\s*,?\s*$/;

export function parseHeaderBlock(text: string): HeaderBlock {
  const headers: Array<[string, string]> = [];
  for (let line of text.replace(/^\uFEFF/, '').split('\n')) {
    line = line.replace(/\r$/, '').replace(/^[<>] ?/, '');
    if (line.trim() === '') {
      if (headers.length) break;
      continue;
    }
    if (START_LINE.test(line.trim())) continue;
    if (/^[ \t]/.test(line) && headers.length && !QUOTED.test(line)) {
      headers[headers.length - 1]![1] += ` ${line.trim()}`;
      continue;
    }
    const quoted = QUOTED.exec(line);
    if (quoted) {
      headers.push([quoted[1]!, quoted[2]!]);
      continue;
    }
    const field = FIELD.exec(line);
    // One space after the colon is the convention; anything else stays, so a
    // whitespace quirk of the value can be reported.
    if (field) headers.push([field[1]!, field[2]!.replace(/^ /, '')]);
  }
  return {
    headers,
    get: (name) => headers.filter(([n]) => isHeader(n, name)).map(([, v]) => v),
  };
}

/**
 * The headers as kept (the --save file, the inbox): the credentials of an Authorization header
 * (a delivery to a receiver behind Basic Auth or OAuth) are masked, its scheme kept. What is
 * forwarded keeps them.
 */
export function withoutCredentials(headers: Array<[string, string]>): Array<[string, string]> {
  return headers.map(([name, value]) => {
    if (!isHeader(name, 'authorization') && !isHeader(name, 'proxy-authorization')) return [name, value];
    const scheme = /^\s*(\S+)\s/.exec(value)?.[1];
    return [name, scheme ? `${scheme} ${REDACTED}` : REDACTED];
  });
}
