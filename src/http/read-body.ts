// A request body with a size bound, for the servers this project runs (the sandbox and
// `webhooks listen`). An oversized body is drained rather than cut off, so that the server
// can still answer 413 on the same connection.
import type { IncomingMessage } from 'node:http';

/** The whole body, or undefined when it is (or declares to be) over `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      resolve(undefined);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) chunks.length = 0;
      else chunks.push(chunk);
    });
    req.on('end', () => resolve(size > maxBytes ? undefined : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
