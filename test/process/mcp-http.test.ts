// `platform mcp --http 0` as a process: the SDK's streamable HTTP client with the bearer token
// it printed lists the tools; a wrong bearer, or a foreign Origin, is refused before any MCP;
// and ads_apply asks the person through elicitation over HTTP as it does over stdio.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv } from '../helpers/cli-process.js';
import { callTool, mcpHttpServer, mcpOverHttp, type HttpMcpServer } from '../helpers/mcp.js';
import { appliesUnasked, confirmsBeforeApply, type ConfirmTarget } from '../helpers/mcp-flows.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

let dir: string;
let sandbox: Sandbox;
let server: HttpMcpServer;
let url: string;
let token: string;
const open: Array<{ close: () => Promise<void> }> = [];

beforeAll(async () => {
  dir = tempDir('platform-mcp-http-');
  sandbox = await sandboxOnFreePort();
  server = await mcpHttpServer([], cliEnv(dir, sandbox.url));
  ({ url, token } = server);
}, scaled(20_000));
afterAll(async () => {
  // (clients first: a server's SIGTERM waits for its sessions)
  for (const one of open.reverse()) await one.close();
  await server.close();
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

describe('platform mcp --http --allow-writes: the confirmation (elicitation)', () => {
  // One server per flag set, each client a session of its own.
  const servers = new Map<string, HttpMcpServer>();
  const target = (): ConfirmTarget => ({
    sandbox,
    account: ACCOUNT,
    connect: async (extra, elicit) => {
      const key = extra.join(' ');
      let writer = servers.get(key);
      if (!writer) {
        writer = await mcpHttpServer(['--allow-writes', ...extra], cliEnv(dir, sandbox.url));
        servers.set(key, writer);
        open.push(writer);
      }
      const client = await mcpOverHttp(writer.url, { authorization: `Bearer ${writer.token}` }, elicit);
      open.push(client);
      return client;
    },
  });

  it('asks before ads_apply: a decline or cancel sends nothing, a yes applies', { timeout: scaled(30_000) }, async () => {
    await confirmsBeforeApply(target());
  });

  it('asks nothing with --no-confirm', { timeout: scaled(30_000) }, async () => {
    await appliesUnasked(target());
  });

  it('asks on the call`s own response stream: a client without the GET stream is asked too', { timeout: scaled(30_000) }, async () => {
    const { connect } = target();
    const sdk = await connect([], () => ({ action: 'decline' }));
    const page = await callTool<{ items: Array<{ campaign_id: string }> }>(sdk, 'ads_campaigns_list', { account: ACCOUNT, limit: 1 });
    const rows = page.items.map((c) => ({ campaign_id: c.campaign_id, name: 'Raw' }));
    const plan = await callTool<{ plan_id: string; plan_hash: string }>(sdk, 'ads_plan', { account: ACCOUNT, resource: 'campaigns', mode: 'patch', rows });
    const writes = () => sandbox.stats.writesById.get(rows[0]!.campaign_id) ?? 0;
    const before = writes();
    // A client of bare POSTs, which never opens GET /mcp.
    const writer = servers.get('')!;
    const headers: Record<string, string> = { authorization: `Bearer ${writer.token}` };
    const post = (message: object) => rawPost(writer.url, headers, message);
    const init = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } },
    });
    headers['mcp-session-id'] = init.headers.get('mcp-session-id')!;
    await init.body?.cancel();
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const call = sseMessages(await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'ads_apply', arguments: plan } }));
    const asked = (await call.next()).value as { id: number; method: string };
    expect(asked.method).toBe('elicitation/create');
    expect((await post({ jsonrpc: '2.0', id: asked.id, result: { action: 'decline' } })).status).toBe(202);
    const answer = (await call.next()).value as { id: number; result: { isError: boolean; content: Array<{ text: string }> } };
    expect(answer.id).toBe(2);
    expect(answer.result.content[0]!.text).toMatch(/^not applied: the person declined; nothing was sent/);
    expect(writes()).toBe(before);
  });
});

const rawPost = (url: string, headers: Record<string, string>, message: object) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-06-18', ...headers },
    body: JSON.stringify(message),
  });

/** The JSON-RPC messages of a server-sent event stream, as they come. */
async function* sseMessages(response: Response): AsyncGenerator<unknown> {
  const decoder = new TextDecoder();
  let buffered = '';
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    buffered += decoder.decode(chunk, { stream: true });
    let end: number;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const data = buffered
        .slice(0, end)
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trim())
        .join('\n');
      buffered = buffered.slice(end + 2);
      if (data) yield JSON.parse(data) as unknown;
    }
  }
}
