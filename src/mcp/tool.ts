// One tool call's frame: its input checked by the SDK (zod), its result structured with a
// short text summary, its error a tool error carrying the CLI's one line and exit code's
// meaning (base/errors.ts), and, with --debug only, one line on stderr per call (no values).
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, RequestId, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import type * as z from 'zod';
import { exitCodeFor } from '../base/errors.js';
import type { Context } from '../context.js';

/** What a tool hands back: its structured result and the line a person reads. */
export interface ToolAnswer {
  result: Record<string, unknown>;
  summary: string;
}

export interface ToolDef<I extends z.ZodRawShape> {
  name: string;
  description: string;
  input: I;
  output: z.ZodRawShape;
  write?: boolean;
  run: (input: z.infer<z.ZodObject<I>>, extra: ToolExtra) => Promise<ToolAnswer>;
}

/** What a call may use of the SDK's request: its abort signal, and its id (to relate an elicitation to it). */
export interface ToolExtra {
  signal: AbortSignal;
  requestId: RequestId;
}

export interface ToolHost {
  server: McpServer;
  ctx: Context;
  debug: boolean;
  /** The line the CLI ends with for this error (its profile and advice), handed in by the command layer. */
  errorLine: (error: unknown) => Promise<string>;
}

const EXIT_MEANING: Record<number, string> = { 1: 'failed', 2: 'usage', 4: 'auth', 130: 'interrupted' };

export function addTool<I extends z.ZodRawShape>(host: ToolHost, def: ToolDef<I>): void {
  const annotations: ToolAnnotations = def.write
    ? { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false }
    : { readOnlyHint: true, openWorldHint: false };
  host.server.registerTool(
    def.name,
    { description: def.description, inputSchema: def.input, outputSchema: def.output, annotations },
    // (the SDK's callback type is generic over the shape; the input arrives parsed)
    (async (input: z.infer<z.ZodObject<I>>, extra: ToolExtra): Promise<CallToolResult> => {
      const started = host.ctx.clock.now();
      try {
        const answer = await def.run(input, extra);
        if (host.debug) host.ctx.info(`mcp: ${def.name} ok in ${host.ctx.clock.now() - started} ms`);
        return { structuredContent: answer.result, content: [{ type: 'text', text: answer.summary }] };
      } catch (error) {
        const code = exitCodeFor(error);
        const line = await host.errorLine(error);
        if (host.debug) host.ctx.info(`mcp: ${def.name} error (exit ${code}) in ${host.ctx.clock.now() - started} ms`);
        return { isError: true, content: [{ type: 'text', text: `${line} [${EXIT_MEANING[code] ?? 'failed'}, exit ${code}]` }] };
      }
    }) as never,
  );
}
