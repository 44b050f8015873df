// Headless sign-in: the user opens the URL on another machine, is redirected to a
// 127.0.0.1 address that does not load there, and pastes that address here.
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';

/** The query of a pasted redirect URL (or of a bare `?code=...&state=...`), else undefined. */
export function pastedQuery(line: string): URLSearchParams | undefined {
  const text = line.trim().replace(/^["'<]|[>"']$/g, '');
  if (!text) return undefined;
  try {
    return new URL(text).searchParams;
  } catch {
    return /^\??[\w.~-]+=/.test(text) ? new URLSearchParams(text.replace(/^\?/, '')) : undefined;
  }
}

/** Calls `onLine` for each non-empty line of stdin; returns a function that stops reading. */
export function readPastedLines(stdin: Readable, onLine: (line: string) => void): () => void {
  const rl = createInterface({ input: stdin, terminal: false, crlfDelay: Infinity });
  rl.on('line', (line) => {
    if (line.trim()) onLine(line);
  });
  return () => {
    rl.close();
    // readline resumed stdin; let go of it so that the process can end.
    stdin.pause();
  };
}
