// stdio: the MCP messages on the command's stdin and stdout (chatter stays on stderr); served
// until stdin ends or the command is stopped.
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { Readable, Writable } from 'node:stream';

export async function serveStdio(server: McpServer, stdin: Readable, stdout: Writable, signal: AbortSignal): Promise<void> {
  const transport = new StdioServerTransport(stdin, stdout);
  const ended = new Promise<void>((resolve) => {
    stdin.once('end', resolve);
    stdin.once('close', resolve);
    signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await server.connect(transport);
  const closed = new Promise<void>((resolve) => (server.server.onclose = resolve));
  await Promise.race([ended, closed]);
  await server.close();
}
