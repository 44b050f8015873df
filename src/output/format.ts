import type { Context } from '../context.js';
import type { OutputFormat } from '../io.js';

/** -o/--json when given; otherwise a table for a person at a terminal, JSON for a pipe. */
export function resolveFormat(ctx: Context): OutputFormat {
  return ctx.globals.output ?? (ctx.io.stdoutIsTTY ? 'table' : 'json');
}
