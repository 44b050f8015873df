// A command's output taken as data: the context it runs with writes JSON to a buffer instead
// of stdout (chatter still goes to stderr), and the tool reads it back.
import { Writable } from 'node:stream';
import type { Context } from '../context.js';

export async function capturedJson(ctx: Context, run: (captured: Context) => Promise<void>): Promise<unknown> {
  const chunks: Buffer[] = [];
  const stdout = new Writable({
    write(chunk: Buffer | string, _encoding, done) {
      chunks.push(Buffer.from(chunk));
      done();
    },
  });
  const captured: Context = {
    ...ctx,
    io: { ...ctx.io, stdout, stdoutIsTTY: false },
    globals: Object.freeze({ ...ctx.globals, output: 'json', query: undefined, fields: undefined }),
  };
  await run(captured);
  const text = Buffer.concat(chunks).toString('utf8').trim();
  return text ? (JSON.parse(text) as unknown) : undefined;
}
