// The one line a progress bar redraws in place on a terminal. Anything else written to the
// terminal (data on stdout, chatter or an error on stderr) erases it first, whole, with the
// cursor back at column 0: nothing is printed after a remnant of the bar ("ETA 0sLINE  ID").
import type { Writable } from 'node:stream';
import type { IO } from '../base/io.js';

export class RedrawnLine {
  #erase: (() => void) | undefined;

  /** A line is on the screen, without its newline; `erase` takes it off. */
  drawn(erase: () => void): void {
    this.#erase = erase;
  }

  /** Takes the drawn line off the screen, if one is; the next draw puts it back. */
  erase(): void {
    const erase = this.#erase;
    this.#erase = undefined;
    erase?.();
  }
}

/** `io` whose stdout and stderr erase the drawn line before each write. */
export function erasingLine(io: IO, line: RedrawnLine): IO {
  return { ...io, stdout: erasingFirst(io.stdout, line), stderr: erasingFirst(io.stderr, line) };
}

/**
 * The stream itself for everything but write (its events, state, drain and end are the
 * stream's own; methods run bound to it), so callers and Node see the real stream. A write
 * put in its place (ora's hook while its spinner spins) wraps this one, never the stream's:
 * set on the stream, it would call itself through this one.
 */
function erasingFirst(stream: Writable, line: RedrawnLine): Writable {
  const write = (...args: unknown[]): boolean => {
    line.erase();
    return (stream.write as (...a: unknown[]) => boolean)(...args);
  };
  let replaced: unknown;
  return new Proxy(stream, {
    get(target, key) {
      if (key === 'write') return replaced ?? write;
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
    set(target, key, value: unknown) {
      if (key !== 'write') return Reflect.set(target, key, value);
      replaced = value === write ? undefined : value;
      return true;
    },
  });
}
