// `platform mcp`: an MCP server for agents. Data only: the server loads when it runs.
import { command, option, options, type FlagsOf } from '../spec.js';

const mcpOptions = options(
  option({ flags: '--http <port>', description: 'serve streamable HTTP on 127.0.0.1:PORT, not stdio', kind: 'int' }),
  option({ flags: '--allow-writes', description: 'add ads_plan, ads_apply and ads_runs_undo' }),
  option({ flags: '--toolsets <list>', description: 'only these: ads, reports, rider, webhooks (comma-separated)', kind: 'list' }),
  option({ flags: '--no-confirm', description: 'apply without asking the person (unattended use)' }),
);
export type McpFlags = FlagsOf<typeof mcpOptions>;

export const mcpSpec = command({
  name: 'mcp',
  summary: 'Serve the tools to AI agents (an MCP server)',
  description:
    'Runs a Model Context Protocol server over stdio (or streamable HTTP with --http, on ' +
    '127.0.0.1 only, with a bearer token printed on stderr and the Origin checked). It uses ' +
    'the profile, its tokens, proxy/CA settings and default account. Read-only unless ' +
    '--allow-writes: then every write is a plan (ads_plan) applied by its id and hash ' +
    '(ads_apply), after the person confirms when the client can ask, and undone by ' +
    'ads_runs_undo. Tool calls are logged on stderr with --debug. See the README, "Agents".',
  options: mcpOptions,
  examples: ['platform mcp', 'platform mcp --allow-writes --toolsets ads', 'platform mcp --http 8765 --allow-writes'],
  load: () => import('./run.js'),
});
