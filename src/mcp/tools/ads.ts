// The ads toolset's reads: accounts, campaigns, ad groups and ads, and the runs of bulk writes.
import * as z from 'zod';
import { AD_GROUPS, ADS, CAMPAIGNS, type AdsResource, type AdsScope } from '../../api/ads-resources.js';
import { UsageError } from '../../base/errors.js';
import { findRun, listRuns, readHistory, type RunSummary } from '../../bulk/runs/runs.js';
import { accountFor } from '../account.js';
import { DEFAULT_LIMIT, listOutput, offsetPage, pageSummary, pagingInput } from '../paging.js';
import { addTool, type ToolHost } from '../tool.js';

const account = z.string().optional().describe('ad account id (default: the profile default)');
const campaign = z.string().describe('campaign id');
const status = z.enum(['active', 'paused']).optional().describe('only items of this status (on this page)');

const hasStatus = (wanted: string | undefined) => (item: Record<string, unknown>) =>
  wanted === undefined || (typeof item.configured_status === 'string' && item.configured_status.endsWith(`_STATUS_${wanted.toUpperCase()}`));

export function addAdsReadTools(host: ToolHost): void {
  const { ctx } = host;
  const listOf = async (resource: AdsResource, scope: AdsScope, input: { limit?: number; cursor?: string; status?: string }) => {
    const client = await ctx.client();
    const page = await client.ads.list<Record<string, unknown>>(resource, scope, { pageToken: input.cursor, pageLimit: input.limit ?? DEFAULT_LIMIT });
    const items = page.items.filter(hasStatus(input.status));
    const next = page.nextPageToken ?? null;
    return { result: { items, next_cursor: next }, summary: pageSummary(`${resource.noun}s`, items.length, next) };
  };

  addTool(host, {
    name: 'ads_accounts_list',
    description: 'List the ad accounts the profile can use.',
    input: { ...pagingInput },
    output: listOutput,
    run: async (input) => {
      const client = await ctx.client();
      const page = offsetPage(await client.ads.listAccounts(), input.limit, input.cursor);
      return { result: page, summary: pageSummary('ad accounts', page.items.length, page.next_cursor) };
    },
  });
  addTool(host, {
    name: 'ads_campaigns_list',
    description: 'List campaigns of an ad account, a page at a time.',
    input: { account, ...pagingInput, status },
    output: listOutput,
    run: async (input) => listOf(CAMPAIGNS, { account: await accountFor(ctx, input.account) }, input),
  });
  addTool(host, {
    name: 'ads_campaigns_view',
    description: 'One campaign by id, every field.',
    input: { account, campaign },
    output: { campaign: z.record(z.string(), z.unknown()) },
    run: async (input) => {
      const scope = { account: await accountFor(ctx, input.account) };
      const client = await ctx.client();
      const [found] = await client.ads.getByIds<Record<string, unknown>>(CAMPAIGNS, scope, [input.campaign]);
      if (!found) throw new UsageError(`campaign: campaign ${input.campaign} not found in account ${scope.account}`);
      return { result: { campaign: found }, summary: `campaign ${input.campaign} "${String(found.name)}"` };
    },
  });
  addTool(host, {
    name: 'ads_ad_groups_list',
    description: 'List ad groups of a campaign, a page at a time.',
    input: { account, campaign, ...pagingInput, status },
    output: listOutput,
    run: async (input) => listOf(AD_GROUPS, { account: await accountFor(ctx, input.account), campaign: input.campaign }, input),
  });
  addTool(host, {
    name: 'ads_ads_list',
    description: 'List ads of an ad group, a page at a time.',
    input: { account, campaign, ad_group: z.string().describe('ad group id'), ...pagingInput },
    output: listOutput,
    run: async (input) => listOf(ADS, { account: await accountFor(ctx, input.account), campaign: input.campaign, adGroup: input.ad_group }, input),
  });
  addTool(host, {
    name: 'ads_runs_list',
    description: 'Bulk write runs on this machine, newest first.',
    input: { ...pagingInput },
    output: listOutput,
    run: (input) => {
      const runs = listRuns(ctx.paths.runs)
        .map(runRow)
        .sort((a, b) => b.started.localeCompare(a.started));
      const page = offsetPage(runs, input.limit, input.cursor);
      return Promise.resolve({ result: page, summary: pageSummary('runs', page.items.length, page.next_cursor) });
    },
  });
  addTool(host, {
    name: 'ads_runs_show',
    description: "A run's summary and per-row results.",
    input: { run: z.string().describe('run name (or its start)'), ...pagingInput },
    output: { run: z.record(z.string(), z.unknown()), ...listOutput },
    run: async (input) => {
      const shown = await runDetail(ctx.paths.runs, input.run);
      const page = offsetPage(shown.rows, input.limit, input.cursor);
      return { result: { run: shown.run, ...page }, summary: `run ${String(shown.run.run)}: ${String(shown.run.status)}, ${shown.rows.length} rows` };
    },
  });
}

/** What a list of runs shows of one. */
export function runRow(found: RunSummary): {
  run: string;
  status: string;
  started: string;
  resource: string;
  mode: string;
  command: string;
  plan: string | null;
} {
  const { record } = found;
  return {
    run: found.run,
    status: found.status,
    started: record.started,
    resource: record.resource,
    mode: record.mode,
    command: record.command ?? '',
    plan: record.plan ?? null,
  };
}

/** A run's summary and its rows (tool and resource alike). */
export async function runDetail(dir: string, name: string): Promise<{ run: Record<string, unknown>; rows: Array<Record<string, unknown>> }> {
  const found = findRun(dir, name);
  if (!found) throw new UsageError(`run: no run ${name} in ${dir} (see ads_runs_list)`);
  const { rows } = await readHistory(found.path);
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.result] = (counts[row.result] ?? 0) + 1;
  return { run: { ...runRow(found), results: counts }, rows: rows.map((row) => ({ ...row })) };
}
