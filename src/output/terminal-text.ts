// Text from a server or an input file may hold terminal control sequences (an API error
// message, a campaign name, an OAuth error_description) or bidi controls that make a line
// read in a different order than it is (U+202E turns "exe.txt" around). Where it reaches a
// terminal they are shown escaped, as `gh` does, so they cannot move the cursor, recolour,
// retitle or reorder what the user sees; data written to a pipe or a file stays byte for byte.

// Bidi embeddings, overrides, isolates and marks, and the Unicode line and paragraph separators.
const BIDI = '\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029';
// C0 controls but tab and newline, DEL, C1 controls (ESC is \x1b, CSI \x9b), and those.
const UNSAFE = new RegExp(`[\\u0000-\\u0008\\u000b-\\u001f\\u007f-\\u009f${BIDI}]`, 'g');
// The same, and what breaks a table cell or a text line apart: tab, newline, carriage return.
const UNSAFE_INLINE = new RegExp(`[\\u0000-\\u001f\\u007f-\\u009f${BIDI}]`, 'g');
// What JSON.stringify leaves as it is but a terminal acts on (JSON escapes C0 itself).
const UNSAFE_IN_JSON = new RegExp(`[\\u007f-\\u009f${BIDI}]`, 'g');

const NAMED: Readonly<Record<string, string>> = { '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** `\x1b[31m` for ESC [ 3 1 m, `\u202e` for RIGHT-TO-LEFT OVERRIDE: visible, and inert. */
function visible(c: string): string {
  const code = c.charCodeAt(0);
  return NAMED[c] ?? (code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`);
}

/** Escapes control and bidi characters; keeps tabs and newlines (multi-line messages). */
export function escapeControls(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** For one table cell or detail value on a terminal: also tabs and newlines, as `\t` and `\n`. */
export function escapeInline(text: string): string {
  return text.replace(UNSAFE_INLINE, visible);
}

/**
 * JSON text for a terminal: DEL, C1 and bidi characters (which JSON.stringify writes raw) as
 * `\u009b` escapes. They can only occur inside strings, so the JSON means the same.
 */
export function escapeJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Escapes when the text goes to a terminal; passes it unchanged to a pipe or a file. */
export function forStream(text: string, isTTY: boolean): string {
  return isTTY ? escapeControls(text) : text;
}

/** JSON for a stream: escaped for a terminal, byte for byte for a pipe or a file. */
export function jsonForStream(json: string, isTTY: boolean): string {
  return isTTY ? escapeJson(json) : json;
}
