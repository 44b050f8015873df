// How many terminal cells a text takes, and how to make it fit a width: cut with an ellipsis,
// or wrapped between words. Cells hold no control characters by the time they are measured
// (they are escaped first), so only combining marks (0 cells) and East Asian wide
// characters and emoji (2 cells) differ from one cell per character.

const COMBINING = /\p{M}/u;
const WIDE =
  /[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6\u{1f300}-\u{1f64f}\u{1f900}-\u{1f9ff}\u{20000}-\u{3fffd}]/u;

function charWidth(char: string): number {
  if (COMBINING.test(char)) return 0;
  return WIDE.test(char) ? 2 : 1;
}

export function displayWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return width;
}

const ELLIPSIS = '…';

/** The text cut to `width` cells, ending in an ellipsis when something was left out. */
export function truncate(text: string, width: number): string {
  if (displayWidth(text) <= width) return text;
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (used + w > width - 1) break;
    out += char;
    used += w;
  }
  return out + ELLIPSIS;
}

/** The widest word: a column that wraps between words is never narrower. */
export function longestWord(text: string): number {
  return Math.max(0, ...text.split(' ').map(displayWidth));
}

/** Lines of at most `width` cells, broken at spaces; a word wider than that is broken where it must. */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (let word of text.split(' ')) {
    if (line !== '' && displayWidth(line) + 1 + displayWidth(word) <= width) {
      line += ` ${word}`;
      continue;
    }
    if (line !== '') lines.push(line);
    while (displayWidth(word) > width && width > 0) {
      const head = sliceWidth(word, width);
      lines.push(head);
      word = word.slice(head.length);
    }
    line = word;
  }
  lines.push(line);
  return lines;
}

/** The longest start of `text` that takes at most `width` cells (at least one character). */
function sliceWidth(text: string, width: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const w = charWidth(char);
    if (out !== '' && used + w > width) break;
    out += char;
    used += w;
  }
  return out;
}
