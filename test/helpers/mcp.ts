// The SDK's own MCP client against the built CLI's `platform mcp`, over stdio (a process per
// client, which a test may kill) or over streamable HTTP.
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

export interface StdioMcp {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close: () => Promise<void>;
}

/** `platform mcp ARGS` as a child process with exactly `env`, initialized. */
export async function mcpOverStdio(args: string[], env: Record<string, string>): Promise<StdioMcp> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client({ name: 'platform-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

/** A client of the streamable HTTP server at `url`, with these request headers. */
export async function mcpOverHttp(url: string, headers: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'platform-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

/** A tool's structured result; a tool error fails with its text. */
export async function callTool<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown>): Promise<T> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
  return result.structuredContent as T;
}

/** A tool error's text (fails when the call succeeded). */
export async function toolError(client: Client, name: string, args: Record<string, unknown>): Promise<string> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (!result.isError) throw new Error(`${name} succeeded: ${JSON.stringify(result.structuredContent)}`);
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
}
