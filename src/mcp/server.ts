// The MCP server: the toolsets asked for (reads always; writes with --allow-writes) and the
// resources, on the CLI's context (profile, tokens, keyring, proxy/CA, default account).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { VERSION } from '../base/version.js';
import type { Context } from '../context.js';
import { addResources } from './resources.js';
import { addAdsReadTools } from './tools/ads.js';
import { addReportTools, type ReportRunner } from './tools/reports.js';
import { addRiderTools } from './tools/rider.js';
import { addWebhooksTools } from './tools/webhooks.js';
import { addWriteTools } from './tools/writes.js';
import type { ToolHost } from './tool.js';

export const TOOLSETS = ['ads', 'reports', 'rider', 'webhooks'] as const;
export type Toolset = (typeof TOOLSETS)[number];

export interface McpOptions {
  toolsets: ReadonlySet<Toolset>;
  allowWrites: boolean;
  /** Ask the person before ads_apply when the client can (elicitation). */
  confirm: boolean;
  debug: boolean;
  /** `ads reports run`, handed in by the command layer, where the report logic lives. */
  runReport: ReportRunner;
  /** The CLI's one line for an error, with its profile and advice (commands/error-line.ts). */
  errorLine: (error: unknown) => Promise<string>;
}

export function createMcpServer(ctx: Context, options: McpOptions): McpServer {
  const server = new McpServer({ name: 'platform', version: VERSION });
  const host: ToolHost = { server, ctx, debug: options.debug, errorLine: options.errorLine };
  if (options.toolsets.has('ads')) {
    addAdsReadTools(host);
    if (options.allowWrites) addWriteTools(host, options.confirm);
  }
  if (options.toolsets.has('reports')) addReportTools(host, options.runReport);
  if (options.toolsets.has('rider')) addRiderTools(host);
  if (options.toolsets.has('webhooks')) addWebhooksTools(host);
  addResources(server, ctx);
  return server;
}
