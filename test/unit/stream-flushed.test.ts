// flushed(): what main.ts waits for before it exits. A pipe read slowly holds a last small
// write (under the high-water mark, so no 'drain' follows it): waiting for 'drain' there left
// nothing to run, and Node ended the CLI with exit 13 on a loaded CI runner.
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { flushed } from '../../src/base/stream-write.js';

/** A stream whose writes complete only when `release` is called, as a full pipe's do. */
function heldStream() {
  const held: Array<() => void> = [];
  const written: string[] = [];
  const stream = new Writable({
    highWaterMark: 16 * 1024,
    write(chunk: Buffer, _encoding, callback) {
      held.push(() => {
        written.push(chunk.toString());
        callback();
      });
    },
  });
  const release = () => {
    while (held.length) held.shift()!();
  };
  return { stream, written, release, held };
}

describe('flushed', () => {
  it('resolves at once when nothing is queued', async () => {
    const { stream } = heldStream();
    await flushed(stream);
    expect(stream.writableLength).toBe(0);
  });

  it('waits for a small write still held (no drain will come for it), then resolves once it is done', async () => {
    const { stream, written, release, held } = heldStream();
    expect(stream.write('last rows\n')).toBe(true); // under the mark: no 'drain' follows
    let done = false;
    const waiting = flushed(stream).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(done).toBe(false);
    expect(held.length).toBe(1);
    release();
    // The empty write queued behind it completes on the next turn.
    await new Promise((resolve) => setImmediate(resolve));
    release();
    await waiting;
    expect(done).toBe(true);
    expect(written.join('')).toBe('last rows\n');
  });

  it('resolves when the stream fails rather than wait forever', async () => {
    const stream = new Writable({
      write(_chunk, _encoding, callback) {
        setImmediate(() => callback(Object.assign(new Error('EPIPE'), { code: 'EPIPE' })));
      },
    });
    stream.on('error', () => {});
    stream.write('x');
    await flushed(stream);
    expect(stream.destroyed).toBe(true);
  });
});
