// A delivery's body as the page shows it: decoded (UTF-8 or not), raw with visible escapes,
// pretty JSON, and a line diff against an edited copy.
import { el } from './dom.js';

export interface DecodedBody {
  text: string;
  utf8: boolean;
  size: number;
}

export function bytesOf(b64: string): Uint8Array {
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

export function decodeBody(b64: string): DecodedBody {
  const bytes = bytesOf(b64);
  try {
    return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes), utf8: true, size: bytes.length };
  } catch {
    return { text: new TextDecoder('utf-8').decode(bytes), utf8: false, size: bytes.length };
  }
}

const hex2 = (n: number) => n.toString(16).toUpperCase().padStart(2, '0');

/**
 * The raw body: printable text as it is; control characters and bytes that are not UTF-8 as
 * visible \xNN escapes in their own colour, so nothing sent is hidden.
 */
export function renderRaw(node: HTMLElement, b64: string): void {
  const parts: Node[] = [];
  const bytes = bytesOf(b64);
  const decoded = decodeBody(b64);
  if (!decoded.utf8) {
    let run = '';
    for (const c of bytes) {
      if ((c >= 0x20 && c < 0x7f) || c === 10 || c === 9) {
        run += String.fromCharCode(c);
        continue;
      }
      if (run) parts.push(document.createTextNode(run));
      run = '';
      parts.push(el('span', `\\x${hex2(c)}`, 'esc'));
    }
    if (run) parts.push(document.createTextNode(run));
  } else {
    const text = decoded.text;
    let start = 0;
    for (let j = 0; j < text.length; j++) {
      const code = text.charCodeAt(j);
      if ((code < 0x20 && code !== 10 && code !== 9) || code === 0x7f || code === 0xfeff) {
        if (j > start) parts.push(document.createTextNode(text.slice(start, j)));
        parts.push(el('span', code === 0xfeff ? '\\uFEFF' : `\\x${hex2(code)}`, 'esc'));
        start = j + 1;
      }
    }
    if (start < text.length) parts.push(document.createTextNode(text.slice(start)));
  }
  node.replaceChildren(...parts);
}

export function pretty(text: string): string | null {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return null;
  }
}

export type DiffLine = [' ' | '-' | '+', string];

/** A line diff (longest common subsequence); JSON on both sides is compared pretty-printed. */
export function diffLines(a: string, b: string): DiffLine[] {
  const pa = pretty(a);
  const pb = pretty(b);
  if (pa !== null && pb !== null) {
    a = pa;
    b = pb;
  }
  const x = a.split('\n');
  const y = b.split('\n');
  const n = x.length;
  const m = y.length;
  const dp: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  const at = (i: number, j: number) => dp[i]![j]!;
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) dp[i]![j] = x[i] === y[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1));
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (x[i] === y[j]) {
      out.push([' ', x[i]!]);
      i++;
      j++;
    } else if (at(i + 1, j) >= at(i, j + 1)) out.push(['-', x[i++]!]);
    else out.push(['+', y[j++]!]);
  }
  while (i < n) out.push(['-', x[i++]!]);
  while (j < m) out.push(['+', y[j++]!]);
  return out;
}
