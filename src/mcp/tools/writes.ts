// The ads toolset's writes (only with --allow-writes): every write is a plan first, applied by
// its id and hash, after the person confirms when the client can ask (elicitation), and undone
// by a plan of its own.
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { CommandError } from '../../base/errors.js';
import { accountFor } from '../account.js';
import { applyPlan, checkedPlan } from '../apply.js';
import { makePlan, undoPlan, type MadePlan } from '../plans.js';
import { addTool, type ToolHost } from '../tool.js';

/** How long ads_apply waits for the person's answer. */
const ASK_TIMEOUT_MS = 10 * 60_000;
const TIMED_OUT: number = ErrorCode.RequestTimeout;

const rowsOut = z.array(z.record(z.string(), z.unknown()));
const planOutput = {
  plan_id: z.string(),
  plan_hash: z.string(),
  account: z.string(),
  resource: z.string(),
  mode: z.string(),
  counts: z.record(z.string(), z.number()),
  rows: rowsOut,
};

const planSummary = (made: MadePlan) =>
  `plan ${made.plan_id} (sha256 ${made.plan_hash}): ${Object.entries(made.counts)
    .map(([k, n]) => `${n} ${k}`)
    .join(', ')}; nothing sent. Apply it with ads_apply.`;

export function addWriteTools(host: ToolHost, confirm: boolean): void {
  const { ctx } = host;
  addTool(host, {
    name: 'ads_plan',
    description:
      'Plan a create or patch: validates each row (CSV columns), reads current values, returns plan_id, plan_hash and per-row current -> new. Sends nothing.',
    input: {
      account: z.string().optional().describe('ad account id (default: the profile default)'),
      resource: z.enum(['campaigns', 'ad_groups', 'ads']),
      mode: z.enum(['patch', 'create']),
      rows: z
        .array(z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])))
        .min(1)
        .describe('objects with the CSV columns'),
      campaign: z.string().optional().describe('campaign id, for rows without campaign_id'),
      ad_group: z.string().optional().describe('ad group id (ads)'),
    },
    output: planOutput,
    write: true,
    run: async (input) => {
      const made = await makePlan(ctx, { ...input, account: await accountFor(ctx, input.account) });
      return { result: { ...made }, summary: planSummary(made) };
    },
  });
  addTool(host, {
    name: 'ads_apply',
    description:
      'Apply a plan by plan_id and plan_hash (refused if the hash differs). Rows changed since are conflicts; journaled, idempotent: a retry never applies a row twice.',
    input: { plan_id: z.string(), plan_hash: z.string() },
    output: {
      plan_id: z.string(),
      run: z.string().nullable(),
      applied_before: z.boolean(),
      counts: z.record(z.string(), z.number()),
      error: z.string().nullable(),
      results: rowsOut,
    },
    write: true,
    run: async (input, extra) => {
      const checked = await checkedPlan(ctx, input.plan_id, input.plan_hash);
      const { header } = checked.plan;
      const n = header.rows;
      const nouns = `${n} ${checked.resource.noun}${n === 1 ? '' : 's'}`;
      const what = `apply plan ${header.id}: ${header.mode === 'create' ? `${nouns} to create` : `${n} change${n === 1 ? '' : 's'} to ${nouns}`} in account ${header.target.account}`;
      if (confirm && host.server.server.getClientCapabilities()?.elicitation) {
        // Asked as part of this call (over HTTP, on its own response stream: a client need not open
        // the optional GET stream), with time for a person to read (the SDK's default is a minute).
        const answer = await host.server.server
          .elicitInput(
            {
              message: `${what}?`,
              requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean', title: 'Apply', description: what } }, required: ['confirm'] },
            },
            { relatedRequestId: extra.requestId, signal: extra.signal, timeout: ASK_TIMEOUT_MS },
          )
          .catch((error: unknown) => {
            if (error instanceof McpError && error.code === TIMED_OUT)
              throw new CommandError(`not applied: no answer from the person in ${ASK_TIMEOUT_MS / 60_000} minutes; nothing was sent`);
            throw error;
          });
        if (answer.action !== 'accept' || answer.content?.confirm !== true)
          throw new CommandError(`not applied: the person ${answer.action === 'cancel' ? 'cancelled' : 'declined'}; nothing was sent`);
      }
      const applied = await applyPlan(ctx, checked);
      const counts = Object.entries(applied.counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ');
      const summary = applied.applied_before
        ? `plan ${applied.plan_id} was applied before by run ${applied.run ?? '(none)'}; nothing sent`
        : `run ${applied.run ?? '(none)'}: ${counts}${applied.error ? `; ${applied.error}` : ''}`;
      return { result: { ...applied }, summary };
    },
  });
  addTool(host, {
    name: 'ads_runs_undo',
    description: 'Plan the undo of a run (each row back to what it replaced). Returns plan_id and plan_hash for ads_apply; sends nothing.',
    input: { run: z.string().describe('run name') },
    output: planOutput,
    write: true,
    run: async (input) => {
      const made = await undoPlan(ctx, input.run);
      return { result: { ...made }, summary: planSummary(made) };
    },
  });
}
