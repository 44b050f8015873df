// The line splitter of state files: the lines readline gives, whatever the chunking, except
// that a line longer than the bound is `undefined` and never held whole.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundedLines } from '../../src/base/bounded-lines.js';

async function linesOf(chunks: Buffer[], maxBytes: number): Promise<Array<string | undefined>> {
  const out: Array<string | undefined> = [];
  for await (const line of boundedLines(
    (async function* () {
      yield* chunks;
    })(),
    maxBytes,
  ))
    out.push(line);
  return out;
}

/** `bytes` cut at the given places. */
function cut(bytes: Buffer, places: number[]): Buffer[] {
  const at = [...new Set(places.map((p) => p % (bytes.length + 1)))].sort((a, b) => a - b);
  return [0, ...at].map((start, i) => bytes.subarray(start, at[i] ?? bytes.length)).filter((c) => c.length > 0);
}

describe('boundedLines', () => {
  it('gives the lines of any chunking (LF or CRLF, multi-byte characters split across chunks, a last line without newline)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.string({ unit: 'grapheme' }).filter((s) => !/[\r\n]/.test(s)),
          { minLength: 1, maxLength: 8 },
        ),
        fc.boolean(),
        fc.boolean(),
        fc.array(fc.nat(), { maxLength: 10 }),
        async (lines, crlf, lastNewline, places) => {
          const text = lines.join(crlf ? '\r\n' : '\n') + (lastNewline ? '\n' : '');
          // An empty last line with no newline after it is no line (as readline).
          const expected = !lastNewline && lines.at(-1) === '' ? lines.slice(0, -1) : lines;
          expect(await linesOf(cut(Buffer.from(text), places), 1024)).toEqual(expected);
        },
      ),
    );
  });

  it('a line over the bound is undefined, the lines around it are whole', async () => {
    const long = 'x'.repeat(100);
    const bytes = Buffer.from(`short\n${long}\n${'y'.repeat(10)}\n${long}`);
    for (const chunks of [[bytes], cut(bytes, [3, 7, 50, 90, 107, 120]), [...bytes].map((b) => Buffer.from([b]))]) {
      expect(await linesOf(chunks, 64)).toEqual(['short', undefined, 'yyyyyyyyyy', undefined]);
    }
    expect(await linesOf([Buffer.from('x'.repeat(64) + '\n' + 'x'.repeat(65))], 64)).toEqual(['x'.repeat(64), undefined]);
  });
});
