// Text from a server or an input file may hold terminal control sequences (an API error
// message, a campaign name, an OAuth error_description) or bidi controls that make a line
// read in a different order than it is (U+202E turns "exe.txt" around), or invisible format
// characters that make two different names look the same ("Sale" and "Sa\u200ble"). Where it
// reaches a terminal they are shown escaped, as `gh` does, so they cannot move the cursor,
// recolour, retitle, reorder or hide from what the user sees; data written to a pipe or a
// file stays byte for byte.

// Format characters (Unicode category Cf: bidi embeddings, overrides, isolates and marks,
// zero-width spaces and joiners, the BOM, tags), and the Unicode line and paragraph separators.
const INVISIBLE = '\\p{Cf}\u2028\u2029';
// C0 controls but tab and newline, DEL, C1 controls (ESC is \x1b, CSI \x9b), and those.
const UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'gu');
// The same, and what breaks a table cell or a text line apart: tab, newline, carriage return.
const UNSAFE_INLINE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${INVISIBLE}]`, 'gu');
// What JSON.stringify leaves as it is but a terminal acts on (JSON escapes C0 itself).
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f${INVISIBLE}]`, 'gu');

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `\x1b[31m` for ESC [ 3 1 m, `\u202e` for RIGHT-TO-LEFT OVERRIDE, `\u{e0041}` for TAG LATIN CAPITAL LETTER A: visible, and inert. */
function visible(c: string): string {
  const code = c.codePointAt(0)!;
  if (NAMED[c]) return NAMED[c];
  if (code <= 0xff) return `\\x${code.toString(16).padStart(2, '0')}`;
  return code <= 0xffff ? `\\u${code.toString(16).padStart(4, '0')}` : `\\u{${code.toString(16)}}`;
}

/** Escapes control and format (bidi, zero-width) characters; keeps tabs and newlines (multi-line messages). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** For one table cell or detail value on a terminal: also tabs and newlines, as `\t` and `\n`. */
export function escapeInline(text: string): string {
  return text.replace(UNSAFE_INLINE, visible);
}

/**
 * JSON text for a terminal: DEL, C1 and format characters (which JSON.stringify writes raw) as
 * `\u009b` escapes (a surrogate pair's two for one beyond U+FFFF). They can only occur inside
 * strings, so the JSON means the same.
 */
export function escapeJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, '0')}`).join(''));
}

/** Escapes when the text goes to a terminal; passes it unchanged to a pipe or a file. */
export function forStream(text: string, isTTY: boolean): string {
  return isTTY ? escapeControls(text) : text;
}

/** JSON for a stream: escaped for a terminal, byte for byte for a pipe or a file. */
export function jsonForStream(json: string, isTTY: boolean): string {
  return isTTY ? escapeJson(json) : json;
}
