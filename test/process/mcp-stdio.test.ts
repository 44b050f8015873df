// `platform mcp` over stdio, driven by the MCP SDK's own client against a sandbox: the tool
// list (read-only by default, small), paging by cursor, and every write as a plan: made
// without sending, refused on a wrong hash, applied with conflicts, applied once across a
// killed server, and undone.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { callTool, mcpOverStdio, toolError, type StdioMcp } from '../helpers/mcp.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const WRITERS = ['ads_plan', 'ads_apply', 'ads_runs_undo'];

interface Page {
  items: Array<{ campaign_id: string; name: string }>;
  next_cursor: string | null;
}
interface Plan {
  plan_id: string;
  plan_hash: string;
  rows: Array<{ row: number; id: string; result: string; changes: string }>;
}
interface Applied {
  run: string | null;
  applied_before: boolean;
  results: Array<{ id: string; result: string }>;
}

let dir: string;
let sandbox: Sandbox;
const open: StdioMcp[] = [];

beforeAll(async () => {
  dir = tempDir('platform-mcp-stdio-');
  sandbox = await sandboxOnFreePort();
});
afterAll(async () => {
  await Promise.all(open.map((m) => m.close()));
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => cliEnv(dir, sandbox.url);
async function server(args: string[] = []): Promise<StdioMcp> {
  const started = await mcpOverStdio(args, env());
  open.push(started);
  return started;
}
const writes = () => new Map(sandbox.stats.writesById);
const writesOf = (before: Map<string, number>, ids: string[]) => ids.map((id) => (sandbox.stats.writesById.get(id) ?? 0) - (before.get(id) ?? 0));

async function campaigns(mcp: StdioMcp, limit: number, cursor?: string): Promise<Page> {
  return await callTool<Page>(mcp.client, 'ads_campaigns_list', { account: ACCOUNT, limit, ...(cursor ? { cursor } : {}) });
}
const renames = (page: Page, suffix: string) => page.items.map((c) => ({ campaign_id: c.campaign_id, name: `${c.name} ${suffix}` }));

describe('platform mcp over stdio', () => {
  it('lists read tools only by default, under 16 KB, and all four toolsets', { timeout: scaled(30_000) }, async () => {
    const mcp = await server();
    const { tools } = await mcp.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ads_campaigns_list', 'ads_runs_show', 'rider_products_list', 'webhooks_verify']));
    expect(names.filter((n) => WRITERS.includes(n))).toEqual([]);
    for (const tool of tools) expect(tool.outputSchema, tool.name).toBeDefined();
    expect(Buffer.byteLength(JSON.stringify({ tools }))).toBeLessThanOrEqual(16 * 1024);
    const writer = await server(['--allow-writes', '--toolsets', 'ads']);
    const withWrites = (await writer.client.listTools()).tools.map((t) => t.name);
    expect(withWrites).toEqual(expect.arrayContaining(WRITERS));
    expect(withWrites.filter((n) => !n.startsWith('ads_'))).toEqual([]);
  });

  it('pages campaigns by cursor, no item twice', { timeout: scaled(30_000) }, async () => {
    const mcp = await server();
    const first = await campaigns(mcp, 2);
    expect(first.items).toHaveLength(2);
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await campaigns(mcp, 2, first.next_cursor!);
    expect(second.items).toHaveLength(2);
    const ids = [...first.items, ...second.items].map((c) => c.campaign_id);
    expect(new Set(ids).size).toBe(4);
  });

  it('plans without sending, refuses a wrong hash, and applies with a conflict', { timeout: scaled(30_000) }, async () => {
    const mcp = await server(['--allow-writes']);
    const page = await campaigns(mcp, 3);
    const ids = page.items.map((c) => c.campaign_id);
    const before = writes();
    const plan = await callTool<Plan>(mcp.client, 'ads_plan', { account: ACCOUNT, resource: 'campaigns', mode: 'patch', rows: renames(page, '(mcp)') });
    expect(plan.plan_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(plan.rows.map((r) => r.result)).toEqual(['would_update', 'would_update', 'would_update']);
    expect(plan.rows[0]!.changes).toContain('(mcp)');
    expect(writesOf(before, ids)).toEqual([0, 0, 0]);
    // Invalid rows are listed, by their place in `rows`; an unknown column is the tool's error.
    const checked = await callTool<Plan>(mcp.client, 'ads_plan', {
      account: ACCOUNT,
      resource: 'campaigns',
      mode: 'patch',
      rows: [{ campaign_id: ids[0]!, status: 'sleeping' }, ...renames(page, '(ok)').slice(1)],
    });
    expect(checked.rows.map((r) => [r.row, r.result])).toEqual([
      [1, 'invalid'],
      [2, 'would_update'],
      [3, 'would_update'],
    ]);
    expect(
      await toolError(mcp.client, 'ads_plan', { account: ACCOUNT, resource: 'campaigns', mode: 'patch', rows: [{ campaign_id: ids[0]!, nom: 'x' }] }),
    ).toMatch(/^rows: unknown column "?nom"? .*\[usage, exit 2\]$/);

    const refused = await toolError(mcp.client, 'ads_apply', { plan_id: plan.plan_id, plan_hash: '0'.repeat(64) });
    expect(refused).toMatch(/^plan_hash: does not match .*nothing was sent \[usage, exit 2\]$/);
    expect(writesOf(before, ids)).toEqual([0, 0, 0]);

    // Someone renames the second campaign between the plan and its apply.
    const edited = await runCli(['ads', 'campaigns', 'patch', ids[1]!, '--account', ACCOUNT, '--name', 'Edited meanwhile'], env());
    expect(edited.code, edited.stderr).toBe(0);
    const applied = await callTool<Applied>(mcp.client, 'ads_apply', { plan_id: plan.plan_id, plan_hash: plan.plan_hash });
    expect(applied.run).toEqual(expect.any(String));
    expect(applied.results.map((r) => [r.id, r.result])).toEqual([
      [ids[0], 'ok'],
      [ids[1], 'conflict'],
      [ids[2], 'ok'],
    ]);
    expect(writesOf(before, ids)).toEqual([1, 1, 1]);
  });

  it('applies a plan once across a killed server, and undoes it', { timeout: scaled(30_000) }, async () => {
    const first = await server(['--allow-writes']);
    const page = await campaigns(first, 3, (await campaigns(first, 3)).next_cursor!);
    const ids = page.items.map((c) => c.campaign_id);
    const names = page.items.map((c) => c.name);
    const plan = await callTool<Plan>(first.client, 'ads_plan', { account: ACCOUNT, resource: 'campaigns', mode: 'patch', rows: renames(page, '(retried)') });
    const before = writes();
    // The connection is lost mid-apply: the server is killed once its writes have reached the
    // sandbox, while their answer is held back (sent, never answered: the retry must not write again).
    sandbox.setFaults({ latencyMs: scaled(1_500) });
    const lost = first.client.callTool({ name: 'ads_apply', arguments: { plan_id: plan.plan_id, plan_hash: plan.plan_hash } }).catch((error: unknown) => error);
    await waitFor(() => writesOf(before, ids).some((n) => n > 0), { what: 'the first apply to write', timeoutMs: scaled(10_000) });
    process.kill(first.transport.pid!, 'SIGKILL');
    expect(await lost).toBeInstanceOf(Error);
    sandbox.setFaults({ latencyMs: 0 });

    const second = await server(['--allow-writes']);
    const again = await callTool<Applied>(second.client, 'ads_apply', { plan_id: plan.plan_id, plan_hash: plan.plan_hash });
    expect(writesOf(before, ids)).toEqual([1, 1, 1]);
    expect(again.run).toEqual(expect.any(String));
    const third = await callTool<Applied>(second.client, 'ads_apply', { plan_id: plan.plan_id, plan_hash: plan.plan_hash });
    expect(third.applied_before).toBe(true);
    expect(writesOf(before, ids)).toEqual([1, 1, 1]);

    const undo = await callTool<Plan>(second.client, 'ads_runs_undo', { run: again.run! });
    expect(undo.rows.map((r) => r.result)).toEqual(['would_update', 'would_update', 'would_update']);
    const undone = await callTool<Applied>(second.client, 'ads_apply', { plan_id: undo.plan_id, plan_hash: undo.plan_hash });
    expect(undone.results.map((r) => r.result)).toEqual(['ok', 'ok', 'ok']);
    const now = await callTool<{ campaign: { name: string } }>(second.client, 'ads_campaigns_view', { account: ACCOUNT, campaign: ids[0]! });
    expect(now.campaign.name).toBe(names[0]);
    const after = await campaigns(second, 3, (await campaigns(second, 3)).next_cursor!);
    expect(after.items.map((c) => c.name)).toEqual(names);
  });
});
