// Free text the API stores (names, keywords): what cannot be in it. Checked by the schemas,
// so the CLI refuses it before sending (naming the row and field) and the sandbox answers
// 400, as the API must never be handed text it cannot store or show faithfully.

// C0 controls but tab, LF and CR, then DEL and C1 controls: a NUL truncates the text in C
// consumers, an escape or a BEL drives a terminal. Tabs and line breaks are text (a CSV
// cell may hold a quoted newline); the output layer escapes them where they would mislead.
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
// A UTF-16 surrogate without its pair: not a character, cannot be encoded as UTF-8.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const codePoint = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

/** Why `value` cannot be sent as text, or undefined when it can. */
export function textProblem(value: string): string | undefined {
  const control = CONTROL.exec(value);
  if (control) return `contains the control character ${codePoint(control[0])} at character ${control.index + 1}`;
  return loneSurrogateProblem(value);
}

/** Why `value` is not valid Unicode (it holds a lone surrogate), or undefined. */
export function loneSurrogateProblem(value: string): string | undefined {
  const lone = LONE_SURROGATE.exec(value);
  return lone ? `contains a lone surrogate ${codePoint(lone[0])} at character ${lone.index + 1} (not a Unicode character)` : undefined;
}
