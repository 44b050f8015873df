// Reads a command's input: the exact bytes of a file, or of stdin for "-".
import fs from 'node:fs';
import { buffer } from 'node:stream/consumers';
import type { Context } from '../context.js';
import { UsageError } from '../base/errors.js';

/** `label` names the flag or argument in the error, e.g. "--input". */
export async function readBytes(ctx: Context, file: string, label: string): Promise<Buffer> {
  if (file === '-') return buffer(ctx.io.stdin);
  try {
    return await fs.promises.readFile(file);
  } catch (error) {
    throw new UsageError(`${label}: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** FILE or "-"; with neither, stdin when it is piped, else a usage error. */
export async function readBodyArgument(ctx: Context, file: string | undefined, usage: string): Promise<Buffer> {
  if (file === undefined && ctx.io.stdinIsTTY) throw new UsageError('give a FILE, or - and the body on stdin', usage);
  return readBytes(ctx, file ?? '-', 'FILE');
}
