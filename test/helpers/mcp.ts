// The SDK's own MCP client against the built CLI's `platform mcp`, over stdio (a process per
// client, which a test may kill) or over streamable HTTP (a `--http 0` process and clients of it).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type CallToolResult, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { waitFor } from './wait.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

/** How a client answers the server's elicitations (it declares the capability only when given). */
export type Elicit = (message: string) => ElicitResult;

export interface StdioMcp {
  client: Client;
  transport: StdioClientTransport;
  stderr: () => string;
  close: () => Promise<void>;
}

function newClient(elicit?: Elicit): Client {
  const client = new Client({ name: 'platform-tests', version: '1.0.0' }, elicit ? { capabilities: { elicitation: {} } } : undefined);
  if (elicit) client.setRequestHandler(ElicitRequestSchema, (request) => elicit(request.params.message));
  return client;
}

/** `platform mcp ARGS` as a child process with exactly `env`, initialized. */
export async function mcpOverStdio(args: string[], env: Record<string, string>, elicit?: Elicit): Promise<StdioMcp> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [bin, 'mcp', ...args], env, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = newClient(elicit);
  await client.connect(transport);
  return { client, transport, stderr: () => stderr, close: () => client.close() };
}

export interface HttpMcpServer {
  url: string;
  token: string;
  stderr: () => string;
  close: () => Promise<void>;
}

/** `platform mcp --http 0 ARGS` as a child process with exactly `env`, once it has printed its address and token. */
export async function mcpHttpServer(args: string[], env: Record<string, string>): Promise<HttpMcpServer> {
  const child = spawn(process.execPath, [bin, 'mcp', '--http', '0', ...args], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  try {
    await waitFor(() => /Bearer \S+\n/.test(stderr) || child.exitCode !== null, {
      what: 'the server to print its token',
      timeoutMs: 15_000,
      state: () => stderr,
    });
    if (child.exitCode !== null) throw new Error(`platform mcp --http exited ${child.exitCode}: ${stderr}`);
  } catch (error) {
    await close();
    throw error;
  }
  return { url: /MCP server at (\S+)/.exec(stderr)![1]!, token: /Bearer (\S+)/.exec(stderr)![1]!, stderr: () => stderr, close };
}

/** A client of the streamable HTTP server at `url`, with these request headers. */
export async function mcpOverHttp(url: string, headers: Record<string, string>, elicit?: Elicit): Promise<Client> {
  const client = newClient(elicit);
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
