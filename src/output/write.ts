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
