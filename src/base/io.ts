// The bottom layer every other one may use: the program's streams, environment, clock and
// the global output choices. No imports but types, no state.
import type { Readable, Writable } from 'node:stream';
import type { CsvDialect } from './csv-dialect.js';

export type Env = Readonly<Record<string, string | undefined>>;

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width when stdout is a TTY ($COLUMNS when set; see terminalColumns in the factory). */
  columns?: number;
}

/** What the output layer needs of a command's context. */
export interface Terminal {
  io: IO;
  globals: GlobalOptions;
}

/** Rows of a bulk run by result. */
export interface RowCounts {
  ok: number;
  /** Rows that would change nothing, so were not sent. */
  unchanged: number;
  failed: number;
  /** Of the failed, rows not sent because their resource changed since the plan or the read. */
  conflict?: number;
  invalid: number;
  skipped: number;
}

/** A progress bar for a bulk run (drawn only on a terminal). */
export interface ProgressDisplay {
  update(counts: RowCounts): void;
  clear(): void;
}

/** A byte progress bar of a download, against the size the API announced. */
export interface TransferDisplay {
  update(bytes: number): void;
  clear(): void;
}

/** One status line that changes while a command waits: a spinner on a terminal, plain lines otherwise. */
export interface StatusLine {
  update(text: string): void;
  /** A line of chatter printed above the status line. */
  note(line: string): void;
  stop(): void;
}

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  /** Resolves after `ms`; rejects with the signal's reason when it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

/** table and wide: for reading (wide cuts no column and shows them all); text: tab-separated lines for scripts. */
export const OUTPUT_FORMATS = ['table', 'wide', 'json', 'ndjson', 'csv', 'text'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

export interface GlobalOptions {
  profile?: string;
  /** Explicit -o/--json choice; undefined means "table on a TTY, json otherwise". */
  output?: OutputFormat;
  color: boolean;
  debug: boolean;
  /** --query: a JMESPath expression applied to the whole output. */
  query?: string;
  /** --json FIELD,FIELD: only these fields of each item (output is JSON). */
  fields?: readonly string[];
  /** --safe-csv: CSV cells that a spreadsheet would run as a formula start with a quote (always so on a terminal). */
  safeCsv?: boolean;
  /** The CSV dialect of -o csv and --from-csv: --delimiter and --decimal-comma, else the env, else the profile's csv_* settings. */
  csv?: CsvDialect;
  /** --ca-file: a PEM bundle of CAs to trust besides Node's, for every call. */
  caFile?: string;
  /** Accessible mode (--accessible, PLATFORM_ACCESSIBLE, the profile's `accessible`): no redraws or cursor moves, tables as records, numbered prompts. */
  accessible?: boolean;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(abortReason(signal));
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      const onAbort = () => {
        clearTimeout(timer);
        reject(abortReason(signal!));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    }),
};

/** The reason a signal aborted, as an Error (AbortSignal types it as any). */
export function abortReason(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new Error(String(reason));
}

/**
 * What the output layer needs of a command's context: where to write, the global flags that
 * shape output, and a line of chatter. A command's Context is one (src/context.ts).
 */
export interface OutputTarget {
  readonly io: IO;
  readonly globals: Readonly<GlobalOptions>;
  info(line: string): void;
}
