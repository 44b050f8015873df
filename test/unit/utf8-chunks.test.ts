// The UTF-8 check of bulk input: any valid text passes whole however its bytes are cut into
// chunks; any invalid byte is refused naming its line, exactly where TextDecoder fails.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { utf8Chunks } from '../../src/bulk/input/utf8-chunks.js';

async function read(chunks: Buffer[]): Promise<Buffer> {
  const out: Buffer[] = [];
  for await (const chunk of utf8Chunks(chunks, '--from-csv')) out.push(chunk);
  return Buffer.concat(out);
}

/** `bytes` cut at the given offsets. */
const cutAt = (bytes: Buffer, cuts: number[]): Buffer[] => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...points, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : points[i - 1]!, end));
};

describe('utf8Chunks', () => {
  it('passes any valid text whole, cut anywhere, in chunks that end on whole characters (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit: 'grapheme', maxLength: 200 }), fc.array(fc.nat(), { maxLength: 8 }), async (text, cuts) => {
        const bytes = Buffer.from(text);
        const out: Buffer[] = [];
        for await (const chunk of utf8Chunks(cutAt(bytes, cuts), 'x')) out.push(chunk);
        expect(Buffer.concat(out).toString()).toBe(text);
        for (const chunk of out) expect(new TextDecoder('utf-8', { fatal: true }).decode(chunk)).toBe(chunk.toString());
      }),
    );
  });

  it('refuses any bytes TextDecoder refuses, naming the line of the first bad byte (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.uint8Array({ maxLength: 60 }), fc.array(fc.nat(), { maxLength: 4 }), async (raw, cuts) => {
        const bytes = Buffer.from(raw);
        let valid = true;
        try {
          new TextDecoder('utf-8', { fatal: true }).decode(bytes);
        } catch {
          valid = false;
        }
        if (valid) {
          expect((await read(cutAt(bytes, cuts))).equals(bytes)).toBe(true);
          return;
        }
        const error = await read(cutAt(bytes, cuts)).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(error?.message).toMatch(/^--from-csv line \d+: not UTF-8 text \(byte 0x[0-9A-F]{2}\); save the file as UTF-8$/);
        // The line is that of the first byte a streaming decoder stops at.
        const line = Number(/line (\d+)/.exec(error!.message)![1]);
        let good = 0;
        for (let n = 1; n <= bytes.length; n++) {
          try {
            new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, n), { stream: true });
            good = n;
          } catch {
            break;
          }
        }
        expect(line).toBe(1 + bytes.subarray(0, good).filter((b) => b === 10).length);
      }),
      { numRuns: 2000 },
    );
  });

  it('names the line: a Latin-1 byte on line 3', async () => {
    await expect(read([Buffer.from('a\nb\nCaf'), Buffer.from([0xe9, 0x0a])])).rejects.toThrow(/^--from-csv line 3: not UTF-8 text \(byte 0xE9\)/);
  });
});
