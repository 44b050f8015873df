// What a terminal of a set width shows once a program's output has been played on it: the
// moves and erasures a spinner or a progress bar makes (\r, ESC[nA/B/C/D/G, ESC[K, ESC[J)
// are carried out, other escape sequences (colours, cursor shown or hidden) leave nothing,
// and a line longer than the terminal wraps onto the next row, as a terminal wraps it. The
// rows a line wrapped onto are joined back to it (as a terminal's copy does), so a line too
// wide for the terminal still reads as one line, too wide. A wide character (寿) takes two cells.
import stringWidth from 'string-width';

interface Row {
  chars: string[];
  /** The line above ran on into this row (the terminal wrapped it). */
  wrapped: boolean;
}

// A CSI sequence (ESC [ params letter), an OSC one (ESC ] ... BEL or ST), a two-byte escape
// (ESC ( B ...), a control character, or one printable character (a whole code point).
const TOKEN = /\x1b\[([?>=]?)([\d;]*)([ -/]*[@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[ -/]*[0-~]?|[\r\n\b\t]|[^\x1b\r\n\b\t]/gsu;

export function shownOnTerminal(output: string, columns: number): string {
  const rows: Row[] = [{ chars: [], wrapped: false }];
  let row = 0;
  let col = 0;
  const at = (r: number) => {
    while (rows.length <= r) rows.push({ chars: [], wrapped: false });
    return rows[r]!;
  };
  for (const match of output.matchAll(TOKEN)) {
    const [token, privateMark, params, final] = match;
    if (final !== undefined) {
      if (privateMark !== '') continue;
      const n = Number(params!.split(';')[0] || '0');
      const by = Math.max(1, n);
      switch (final) {
        case 'A':
          row = Math.max(0, row - by);
          break;
        case 'B':
          row += by;
          break;
        case 'C':
          col = Math.min(columns - 1, col + by);
          break;
        case 'D':
          col = Math.max(0, col - by);
          break;
        case 'G':
          col = Math.min(columns, by) - 1;
          break;
        case 'K': {
          const line = at(row);
          if (n === 0) line.chars.length = Math.min(line.chars.length, col);
          else if (n === 1) line.chars.fill(' ', 0, Math.min(line.chars.length, col + 1));
          else line.chars = [];
          break;
        }
        case 'J':
          if (n === 0) {
            at(row).chars.length = Math.min(at(row).chars.length, col);
            rows.length = row + 1;
          } else if (n === 2) for (const r of rows) r.chars = [];
          break;
        default:
        // Colours, modes: nothing shown.
      }
      continue;
    }
    if (token.startsWith('\x1b')) continue;
    if (token === '\r') col = 0;
    else if (token === '\n') {
      row++;
      col = 0;
      at(row);
    } else if (token === '\b') col = Math.max(0, col - 1);
    else if (token === '\t') col = Math.min(columns - 1, (Math.floor(col / 8) + 1) * 8);
    else {
      const width = stringWidth(token);
      if (width === 0) {
        // A combining mark or a joiner: part of the character before it.
        const line = at(row);
        if (col > 0) line.chars[col - 1] = (line.chars[col - 1] ?? '') + token;
        continue;
      }
      if (col + width > columns) {
        row++;
        col = 0;
        at(row).wrapped = true;
      }
      const line = at(row);
      while (line.chars.length < col) line.chars.push(' ');
      line.chars[col] = token;
      // The second cell of a wide character holds nothing of its own.
      if (width === 2) line.chars[col + 1] = '';
      col += width;
    }
  }
  const lines: string[] = [];
  for (const r of rows) {
    const text = r.chars.join('');
    if (r.wrapped && lines.length > 0) lines[lines.length - 1] += text;
    else lines.push(text);
  }
  return lines.map((line) => line.trimEnd()).join('\n');
}
