// What a terminal shows on the line where some text starts: the output up to it played as a
// terminal would (\r back to column 0, ESC[K erasing to the end of the line, any other
// character written at the cursor), for tests that check nothing is left before it.
/** The visible line and the cursor's column at the first `marker` in `output`; undefined when it is not there. */
export function lineBefore(output: string, marker: string): { shown: string; column: number } | undefined {
  const at = output.indexOf(marker);
  if (at < 0) return undefined;
  const start = output.lastIndexOf('\n', at) + 1;
  let line: string[] = [];
  let column = 0;
  const text = output.slice(start, at);
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (char === '\r') column = 0;
    else if (text.startsWith('\u001b[K', i)) {
      line = line.slice(0, column);
      i += 2;
    } else {
      line[column] = char;
      column++;
    }
  }
  return { shown: line.join('').trimEnd(), column };
}
