// `platform mcp --http 0` as a process: the SDK's streamable HTTP client with the bearer token
// it printed lists the tools; a wrong bearer, or a foreign Origin, is refused before any MCP.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv } from '../helpers/cli-process.js';
import { callTool, mcpOverHttp } from '../helpers/mcp.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

let dir: string;
let sandbox: Sandbox;
let child: ChildProcess;
let url: string;
let token: string;

beforeAll(async () => {
  dir = tempDir('platform-mcp-http-');
  sandbox = await sandboxOnFreePort();
  child = spawn(process.execPath, [bin, 'mcp', '--http', '0'], { env: cliEnv(dir, sandbox.url), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  await waitFor(() => /Bearer \S+\n/.test(stderr), { what: 'the server to print its token', timeoutMs: scaled(15_000), state: () => stderr });
  url = /MCP server at (\S+)/.exec(stderr)![1]!;
  token = /Bearer (\S+)/.exec(stderr)![1]!;
}, scaled(20_000));
afterAll(async () => {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const initialize = (headers: Record<string, string>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
    }),
  });

describe('platform mcp --http', () => {
  it('serves the SDK client with the bearer token, on 127.0.0.1', { timeout: scaled(20_000) }, async () => {
    expect(new URL(url).hostname).toBe('127.0.0.1');
    const client = await mcpOverHttp(url, { authorization: `Bearer ${token}` });
    try {
      const { tools } = await client.listTools();
      expect(tools.map((t) => t.name)).toContain('ads_campaigns_list');
      expect(tools.map((t) => t.name)).not.toContain('ads_apply');
      const page = await callTool<{ items: unknown[] }>(client, 'ads_campaigns_list', { account: ACCOUNT, limit: 2 });
      expect(page.items).toHaveLength(2);
    } finally {
      await client.close();
    }
  });

  it('refuses a wrong bearer, a missing one and a foreign Origin', { timeout: scaled(20_000) }, async () => {
    expect((await initialize({ authorization: `Bearer ${token}x` })).status).toBe(401);
    expect((await initialize({})).status).toBe(401);
    const foreign = await initialize({ authorization: `Bearer ${token}`, origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    const own = await initialize({ authorization: `Bearer ${token}`, origin: new URL(url).origin });
    expect(own.status).toBe(200);
    await own.body?.cancel();
  });
});
