// Resources: a run (summary and results), a plan made over MCP, and the governor's pace and
// budget per host (what this process has sent and been refused).
import fs from 'node:fs';
import { ResourceTemplate, type McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Context } from '../context.js';
import { planPath } from './plans.js';
import { runDetail } from './tools/ads.js';

const json = (uri: URL, value: unknown) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }] });

export function addResources(server: McpServer, ctx: Context): void {
  server.registerResource(
    'run',
    new ResourceTemplate('platform://runs/{run}', { list: undefined }),
    { description: "A bulk run's summary and per-row results", mimeType: 'application/json' },
    async (uri, { run }) => json(uri, await runDetail(ctx.paths.runs, String(run))),
  );
  server.registerResource(
    'plan',
    new ResourceTemplate('platform://plans/{plan_id}', { list: undefined }),
    { description: 'A plan made by ads_plan or ads_runs_undo (NDJSON, sealed)', mimeType: 'application/x-ndjson' },
    (uri, { plan_id }) => {
      const file = planPath(ctx, String(plan_id));
      return { contents: [{ uri: uri.href, mimeType: 'application/x-ndjson', text: fs.readFileSync(file, 'utf8') }] };
    },
  );
  server.registerResource(
    'quota',
    'platform://quota',
    { description: "The request governor's pace and budget per host", mimeType: 'application/json' },
    async (uri) => {
      const client = await ctx.client();
      const hosts = [client.http, client.riderHttp].map((http) => ({
        host: new URL(http.baseUrl).host,
        pace_per_second: http.governor?.pace() ?? null,
        processes_sharing: http.governor?.processes() ?? 1,
        ...(http.governor?.counts() ?? { requests: 0, refused: 0 }),
      }));
      return json(uri, { hosts });
    },
  );
}
