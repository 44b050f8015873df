// `platform mcp`: checks its flags, then serves the MCP server (src/mcp) until stdin ends or Ctrl-C.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { createMcpServer, TOOLSETS, type McpOptions, type Toolset } from '../../mcp/server.js';
import { serveHttp } from '../../mcp/http.js';
import { serveStdio } from '../../mcp/stdio.js';
import { run as runReport } from '../ads/reports/run.js';
import { errorLineOf } from '../error-line.js';
import type { McpFlags } from './spec.js';

export async function run(ctx: Context, flags: McpFlags): Promise<void> {
  const options = mcpOptions(ctx, flags);
  if (flags.http === undefined) return await serveStdio(createMcpServer(ctx, options), ctx.io.stdin, ctx.io.stdout, ctx.signal);
  if (flags.http < 0 || flags.http > 65535) throw new UsageError('--http: give a port from 0 to 65535');
  const serving = await serveHttp(flags.http, () => createMcpServer(ctx, options), ctx.signal);
  ctx.info(`MCP server at ${serving.url}`);
  ctx.info(`Authorization: Bearer ${serving.token}`);
  await serving.closed;
}

function mcpOptions(ctx: Context, flags: McpFlags): McpOptions {
  const asked = flags.toolsets ?? [...TOOLSETS];
  const unknown = asked.filter((name) => !(TOOLSETS as readonly string[]).includes(name));
  if (unknown.length) throw new UsageError(`--toolsets: unknown ${unknown.join(', ')} (ads, reports, rider, webhooks)`);
  return {
    toolsets: new Set(asked as Toolset[]),
    allowWrites: Boolean(flags.allowWrites),
    confirm: flags.confirm !== false,
    debug: ctx.globals.debug,
    runReport,
    errorLine: (error) => toolErrorLine(ctx, error),
  };
}

/** The CLI's line for an error (error-line.ts), naming the profile when it can be read, as cli.ts does. */
async function toolErrorLine(ctx: Context, error: unknown): Promise<string> {
  let profile: string | undefined;
  try {
    profile = (await ctx.profile()).name;
  } catch {
    // (no profile to name: the line says what went wrong without it)
  }
  return errorLineOf(error, profile);
}
