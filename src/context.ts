// What every command receives: its IO, environment, clock and lazily created services.
// Commands never touch `process`, `conf` or `undici` themselves (design.md, Layers).
import type { Readable, Writable } from 'node:stream';
import type { ConfigStore } from './config/store.js';
import type { ApiClient } from './api/client.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width when stdout is a TTY. */
  columns?: number;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const OUTPUT_FORMATS = ['table', 'json', 'ndjson', 'csv'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface GlobalOptions {
  profile?: string;
  /** Explicit -o/--json choice; undefined means "table on a TTY, json otherwise". */
  output?: OutputFormat;
  color: boolean;
  debug: boolean;
}

export interface Context {
  io: IO;
  env: Env;
  clock: Clock;
  /** Aborts on Ctrl-C (SIGINT). */
  signal: AbortSignal;
  globals: GlobalOptions;
  /** The profile store, opened on first use. */
  config(): Promise<ConfigStore>;
  /** The API client of the active profile, created on first use. */
  client(): Promise<ApiClient>;
  /** Asks for a secret without echo; fails with a UsageError when stdin is not a terminal. */
  promptSecret(message: string): Promise<string>;
  /**
   * Asks a yes/no question (@inquirer/prompts confirm) reading io.stdin and drawing on
   * io.stderr; fails with a UsageError when stdin is not a terminal. Tests answer it by
   * giving the Context a fake terminal stdin and writing the keystrokes ("y\n") to it.
   */
  confirm(message: string, defaultAnswer?: boolean): Promise<boolean>;
  /** A line of chatter on stderr (progress, hints); never data. */
  info(line: string): void;
  /**
   * Opens a URL in the user's browser ($PLATFORM_BROWSER, $BROWSER, else the system's
   * opener). Rejects with the reason when none can be opened; may stay pending while a
   * browser command runs. Tests inject their own (a headless browser).
   */
  openUrl(url: string): Promise<void>;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};
