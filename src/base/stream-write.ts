import type { Writable } from 'node:stream';

/** Writes and waits for the stream to drain when it asks to, so large outputs stay in flat memory. */
export async function write(stream: Writable, text: string | Uint8Array): Promise<void> {
  // A reader that stopped reading (`| head`) closed it: what follows is dropped. (main.ts ends a
  // command there, unless the command winds down on its own: a bulk run, write.ts.)
  if (stream.destroyed) return;
  if (stream.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: NodeJS.ErrnoException) => {
      stream.off('drain', done);
      stream.off('error', done);
      if (error && error.code !== 'EPIPE') reject(error);
      else resolve();
    };
    stream.once('drain', done);
    stream.once('error', done);
  });
}

/**
 * Resolves once the writes queued on `stream` are done (main.ts waits for it before it exits).
 * Not on 'drain': that comes only after a write that returned false, and a pipe read slowly
 * (a loaded machine) can hold a last small write that never set it; waiting for 'drain',
 * nothing was left to run and Node ended the run with exit 13 ("unsettled top-level await").
 * An empty write's callback runs after the writes before it.
 */
export function flushed(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    if (stream.writableLength === 0 || stream.destroyed) return resolve();
    stream.once('error', () => resolve());
    stream.write('', () => resolve());
  });
}

/**
 * Gathers small writes (one per row) into chunks: a write per row costs a system call each
 * on a file or pipe. A chunk goes out at `chunkBytes`, or `delayMs` after its first row
 * when given, so a slow stream of rows (a batch in a retry) still reaches the reader
 * promptly. `end` writes the rest.
 */
export class ChunkedWriter {
  #parts: string[] = [];
  #size = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #failed: Error | undefined;
  readonly #chunkBytes: number;
  readonly #delayMs: number | undefined;

  constructor(
    private readonly stream: Writable,
    { chunkBytes = 64 * 1024, delayMs }: { chunkBytes?: number; delayMs?: number } = {},
  ) {
    this.#chunkBytes = chunkBytes;
    this.#delayMs = delayMs;
  }

  /** Not async: a promise (to wait for) only when a chunk went out and the stream asks to wait. */
  write(text: string): Promise<void> | undefined {
    if (this.#failed) throw this.#failed;
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size >= this.#chunkBytes) return this.end();
    if (this.#delayMs !== undefined)
      this.#timer ??= setTimeout(() => void this.end().catch((error: unknown) => (this.#failed = error as Error)), this.#delayMs);
    return undefined;
  }

  /** Writes what is gathered (and waits for the stream to drain if it asks to). */
  async end(): Promise<void> {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#parts.length === 0) return;
    const text = this.#parts.join('');
    this.#parts = [];
    this.#size = 0;
    await write(this.stream, text);
  }
}
