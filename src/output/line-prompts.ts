// Prompts of accessible mode, read a line at a time: the choices as a numbered list and a
// number typed back, or a secret typed unseen. Nothing is redrawn and the cursor is never
// moved (the @inquirer prompts redraw their line), so a screen reader reads each line once.
import readline from 'node:readline';
import type { IO } from '../base/io.js';
import { InterruptedError, UsageError } from '../base/errors.js';

export interface Choice<T> {
  label: string;
  value: T;
}

/**
 * `Request this ride?` then `  1) Yes` / `  2) No` and `Type a number (1-2; Enter for 2): `;
 * reads lines until one is a choice's number (or empty, with a default).
 */
export async function askNumbered<T>(
  io: IO,
  message: string,
  choices: ReadonlyArray<Choice<T>>,
  defaultIndex: number | undefined,
  signal: AbortSignal,
): Promise<T> {
  const list = choices.map((choice, i) => `  ${i + 1}) ${choice.label}`).join('\n');
  const enter = defaultIndex === undefined ? '' : `; Enter for ${defaultIndex + 1}`;
  const ask = `Type a number (1-${choices.length}${enter}): `;
  io.stderr.write(`${message}\n${list}\n${ask}`);
  const lines = readline.createInterface({ input: io.stdin, terminal: false });
  try {
    for await (const line of linesUntil(lines, signal)) {
      const answer = line.trim();
      if (answer === '' && defaultIndex !== undefined) return choices[defaultIndex]!.value;
      const chosen = /^\d+$/.test(answer) ? choices[Number(answer) - 1] : undefined;
      if (chosen) return chosen.value;
      io.stderr.write(`${answer === '' ? 'No answer' : `${answer} is not one of the choices`}. ${ask}`);
    }
    throw new UsageError(`${message} needs an answer, and the input ended`);
  } finally {
    lines.close();
  }
}

/** The interface's lines, ending with an InterruptedError when `signal` aborts (Ctrl-C). */
async function* linesUntil(lines: readline.Interface, signal: AbortSignal): AsyncIterable<string> {
  if (signal.aborted) throw new InterruptedError();
  const iterator = lines[Symbol.asyncIterator]();
  let onAbort!: () => void;
  const aborted = new Promise<never>((_resolve, reject) => (onAbort = () => reject(new InterruptedError())));
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    for (;;) {
      const next = await Promise.race([iterator.next(), aborted]);
      if (next.done) return;
      yield next.value;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/**
 * A secret typed on the terminal with echo off (raw mode): the prompt, then one newline once
 * Enter is pressed. Backspace takes back a character; Ctrl-C is an interrupt, Ctrl-D on an empty line the end.
 */
export function askHidden(io: IO, message: string, signal: AbortSignal): Promise<string> {
  const stdin = io.stdin as NodeJS.ReadStream;
  return new Promise<string>((resolve, reject) => {
    let typed = '';
    const finish = (error?: Error) => {
      stdin.off('data', onData);
      signal.removeEventListener('abort', onAbort);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
      if (error) reject(error);
      else resolve(typed);
    };
    const onAbort = () => finish(new InterruptedError());
    const onData = (chunk: Buffer | string) => {
      for (const char of chunk.toString()) {
        if (char === '\r' || char === '\n') return finish();
        if (char === '\u0003') return finish(new InterruptedError());
        if (char === '\u0004' && typed === '') return finish(new UsageError(`${message} is needed, and the input ended`));
        if (char === '\u007f' || char === '\b') typed = typed.slice(0, -1);
        else if (char >= ' ') typed += char;
      }
    };
    // Echo off before the prompt shows: what is typed as soon as it does is not shown either.
    stdin.setRawMode?.(true);
    io.stderr.write(`${message} (typing is not shown, Enter to end): `);
    if (signal.aborted) return finish(new InterruptedError());
    signal.addEventListener('abort', onAbort, { once: true });
    stdin.on('data', onData);
    stdin.resume();
  });
}
