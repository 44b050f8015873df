// The lines of a state file (a journal, a plan, results to resume from), none held past
// `maxBytes`: readline keeps a line whole however long it is, so a journal of 300 MB with no
// newline took 730 MB and 3 s before its parse failed (and a 2 GiB one more than a string holds).
import { MiB } from './state-file.js';

/** Far longer than any line the CLI writes (a journal record of a 1,000-row batch is under 1 MB), and small enough that a file without newlines keeps memory flat. */
export const MAX_STATE_LINE_BYTES = 16 * MiB;

/** What an error says of line `number` that boundedLines gave as undefined. */
export const overlongLine = (number: number) => `line ${number} is longer than ${MAX_STATE_LINE_BYTES / MiB} MiB`;

/**
 * The lines of `input` (Buffers), without their `\n` or `\r\n`; a line longer than `maxBytes`
 * is `undefined`, its bytes dropped as they come, so memory stays bounded whatever the file.
 */
export async function* boundedLines(input: AsyncIterable<Buffer>, maxBytes = MAX_STATE_LINE_BYTES): AsyncGenerator<string | undefined> {
  let parts: Buffer[] = [];
  let held = 0;
  let overlong = false;
  for await (const chunk of input) {
    let start = 0;
    for (let end = chunk.indexOf(10, start); end !== -1; end = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, end);
      start = end + 1;
      if (overlong || held + piece.length > maxBytes) yield undefined;
      else yield text(parts.length ? Buffer.concat([...parts, piece]) : piece);
      parts = [];
      held = 0;
      overlong = false;
    }
    const rest = chunk.subarray(start);
    if (overlong || rest.length === 0) continue;
    held += rest.length;
    if (held > maxBytes) {
      overlong = true;
      parts = [];
    } else parts.push(rest);
  }
  if (overlong) yield undefined;
  else if (held > 0) yield text(Buffer.concat(parts));
}

function text(bytes: Buffer): string {
  const line = bytes.toString('utf8');
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}
