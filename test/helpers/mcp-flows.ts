// The confirmation of ads_apply, written once and run over each transport (mcp-tools.test.ts
// over stdio, mcp-http.test.ts over streamable HTTP): a client that declares elicitation is
// asked "apply plan P: N changes to N campaigns in account A?"; a decline, a cancel or an
// unticked box sends nothing and the tool error says so; a yes applies the plan; and with
// --no-confirm nothing is asked.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { expect } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { callTool, toolError, type Elicit } from './mcp.js';

export interface ConfirmTarget {
  sandbox: Sandbox;
  account: string;
  /** An initialized client of `platform mcp --allow-writes ...extra` that answers elicitations with `elicit`. */
  connect: (extra: string[], elicit: Elicit) => Promise<Client>;
}

interface Plan {
  plan_id: string;
  plan_hash: string;
}

/** A plan renaming two campaigns (from the `offset`th), and a count of the sandbox's writes to them since. */
async function twoRenames(client: Client, target: ConfirmTarget, offset: number, suffix: string) {
  const list = (cursor?: string) =>
    callTool<{ items: Array<{ campaign_id: string; name: string }>; next_cursor: string | null }>(client, 'ads_campaigns_list', {
      account: target.account,
      limit: 2,
      ...(cursor ? { cursor } : {}),
    });
  let page = await list();
  for (let skipped = 0; skipped < offset; skipped++) page = await list(page.next_cursor!);
  const rows = page.items.map((c) => ({ campaign_id: c.campaign_id, name: `${c.name} ${suffix}` }));
  const plan = await callTool<Plan>(client, 'ads_plan', { account: target.account, resource: 'campaigns', mode: 'patch', rows });
  const writesOf = () => rows.map((r) => target.sandbox.stats.writesById.get(r.campaign_id) ?? 0);
  const before = writesOf();
  return { plan: { plan_id: plan.plan_id, plan_hash: plan.plan_hash }, written: () => writesOf().map((n, i) => n - before[i]!) };
}

/** Declined three ways (nothing sent), then accepted (applied). Returns the client, the plan and its run. */
export async function confirmsBeforeApply(target: ConfirmTarget): Promise<{ client: Client; plan: Plan; run: string }> {
  const asked: string[] = [];
  const answers: ElicitResult[] = [
    { action: 'decline' },
    { action: 'cancel' },
    { action: 'accept', content: { confirm: false } },
    { action: 'accept', content: { confirm: true } },
  ];
  const client = await target.connect([], (message) => {
    asked.push(message);
    return answers[asked.length - 1]!;
  });
  const { plan, written } = await twoRenames(client, target, 0, '(asked)');
  const question = `apply plan ${plan.plan_id}: 2 changes to 2 campaigns in account ${target.account}?`;
  for (const [i, said] of ['declined', 'cancelled', 'declined'].entries()) {
    expect(await toolError(client, 'ads_apply', { ...plan })).toBe(`not applied: the person ${said}; nothing was sent [failed, exit 1]`);
    expect(asked).toEqual(Array(i + 1).fill(question));
    expect(written()).toEqual([0, 0]);
  }
  const applied = await callTool<{ run: string; results: Array<{ result: string }> }>(client, 'ads_apply', { ...plan });
  expect(asked).toEqual(Array(4).fill(question));
  expect(applied.results.map((r) => r.result)).toEqual(['ok', 'ok']);
  expect(written()).toEqual([1, 1]);
  return { client, plan, run: applied.run };
}

/** With --no-confirm the same client is never asked, and the plan applies. */
export async function appliesUnasked(target: ConfirmTarget): Promise<void> {
  const asked: string[] = [];
  const client = await target.connect(['--no-confirm'], (message) => {
    asked.push(message);
    return { action: 'decline' };
  });
  const { plan, written } = await twoRenames(client, target, 1, '(unasked)');
  const applied = await callTool<{ results: Array<{ result: string }> }>(client, 'ads_apply', { ...plan });
  expect(applied.results.map((r) => r.result)).toEqual(['ok', 'ok']);
  expect(asked).toEqual([]);
  expect(written()).toEqual([1, 1]);
}
