import type { OutputTarget } from '../base/io.js';
import type { Env, OutputFormat } from '../base/io.js';

/** -o/--json when given; otherwise a table for a person at a terminal, JSON for a pipe. */
export function resolveFormat(ctx: OutputTarget): OutputFormat {
  return ctx.globals.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'json');
}

/** $COLUMNS when it is a positive integer (the user's say), else the terminal's own width. */
export function terminalColumns(env: Env, ttyColumns: number | undefined): number | undefined {
  const fromEnv = env.COLUMNS?.trim();
  return fromEnv && /^[1-9]\d{0,5}$/.test(fromEnv) ? Number(fromEnv) : ttyColumns;
}
