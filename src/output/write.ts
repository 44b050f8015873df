import type { Writable } from 'node:stream';

/** Writes and waits for the stream to drain when it asks to, so large outputs stay in flat memory. */
export async function write(stream: Writable, text: string | Uint8Array): Promise<void> {
  if (stream.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off('drain', done);
      stream.off('error', done);
      if (error) reject(error);
      else resolve();
    };
    stream.once('drain', done);
    stream.once('error', done);
  });
}

/**
 * Gathers small writes (one per row) into chunks: a write per row costs a system call each
 * on a file or pipe. A chunk goes out at 64 KiB, or 50 ms after its first row, so a slow
 * stream of rows (a batch in a retry) still reaches the reader promptly. `end` writes the rest.
 */
export class ChunkedWriter {
  #parts: string[] = [];
  #size = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #failed: Error | undefined;

  constructor(
    private readonly stream: Writable,
    private readonly chunkBytes = 64 * 1024,
    private readonly delayMs = 50,
  ) {}

  async write(text: string): Promise<void> {
    if (this.#failed) throw this.#failed;
    this.#parts.push(text);
    this.#size += text.length;
    if (this.#size >= this.chunkBytes) return this.end();
    this.#timer ??= setTimeout(() => void this.end().catch((error: unknown) => (this.#failed = error as Error)), this.delayMs);
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
