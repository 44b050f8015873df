// Text from a server or an input file may hold terminal control sequences (an API error
// message, a campaign name, an OAuth error_description). Where it reaches a terminal they
// are shown escaped, as `gh` does, so they cannot move the cursor, recolour or retitle the
// user's terminal; data written to a pipe or a file stays byte for byte.

// C0 controls but tab and newline, DEL, and C1 controls (ESC is \x1b, CSI \x9b).

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** `\x1b[31m` for ESC [ 3 1 m: visible, and inert. */
export function escapeControls(text: string): string {
  return text.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Escapes when the text goes to a terminal; passes it unchanged to a pipe or a file. */
export function forStream(text: string, isTTY: boolean): string {
  return isTTY ? escapeControls(text) : text;
}
