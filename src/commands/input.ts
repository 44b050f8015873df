// Reads a command's input: the exact bytes of a file, or of stdin for "-".
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { Context } from '../context.js';
import { UsageError } from '../base/errors.js';

/**
 * The most a command reads whole into memory (a webhook body, an API request body). Past it
 * the input is refused in one line, read no further: a larger file (or a device that never
 * ends) would otherwise fail deep in Node with only ERR_FS_FILE_TOO_LARGE, or run out of memory.
 */
export const MAX_INPUT_BYTES = 1 << 30;
const MAX_INPUT_TEXT = '1 GiB';

/** `label` names the flag or argument in the error, e.g. "--input". */
export async function readBytes(ctx: Context, file: string, label: string): Promise<Buffer> {
  const limit = `the ${MAX_INPUT_TEXT} limit of an input read whole; give a smaller one`;
  if (file === '-') return readBounded(ctx.io.stdin, () => new UsageError(`${label}: stdin holds more than ${MAX_INPUT_TEXT}, over ${limit}`));
  const tooLarge = (size?: number) =>
    new UsageError(`${label}: ${file} ${size === undefined ? `holds more than ${MAX_INPUT_TEXT}` : `is ${size} bytes`}, over ${limit}`);
  try {
    const size = (await fs.promises.stat(file)).size;
    if (size > MAX_INPUT_BYTES) throw tooLarge(size);
    // Bounded as it is read: a FIFO or device has no size to check first.
    return await readBounded(fs.createReadStream(file), () => tooLarge());
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`${label}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** The stream's bytes, or the error `tooLarge` makes once they pass MAX_INPUT_BYTES (the rest is not read). */
async function readBounded(stream: Readable, tooLarge: () => Error): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    // (Leaving the loop destroys the stream: the rest is never read.)
    if (size > MAX_INPUT_BYTES) throw tooLarge();
    chunks.push(bytes);
  }
  return Buffer.concat(chunks, size);
}

/** FILE or "-"; with neither, stdin when it is piped, else a usage error. */
export async function readBodyArgument(ctx: Context, file: string | undefined, usage: string): Promise<Buffer> {
  if (file === undefined && ctx.io.stdinIsTTY) throw new UsageError('give a FILE, or - and the body on stdin', usage);
  return readBytes(ctx, file ?? '-', 'FILE');
}
