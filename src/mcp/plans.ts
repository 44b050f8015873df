// Plans made over MCP, on the bulk layer as `ads ... --dry-run --plan` uses it: a dry run
// (nothing sent) writes the plan, kept under its id in the state folder for ads_apply (apply.ts).
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { resourceNamed, type AdsResource, type AdsScope } from '../api/ads-resources.js';
import { UsageError } from '../base/errors.js';
import type { BulkMode } from '../bulk/input/csv-columns.js';
import { runBulkPlan, type BulkPlan, type BulkSource, type PlannedRow } from '../bulk/pipeline.js';
import type { DryRunRow } from '../bulk/plan/dry-run.js';
import { readPlanHeader, verifyPlan } from '../bulk/plan/plan.js';
import { findRun, listRuns, readHistory, undoOf } from '../bulk/runs/runs.js';
import { undoRows, unknownCreates } from '../bulk/runs/undo.js';
import type { Context } from '../context.js';

/** Where the plans made over MCP are kept: <state>/mcp-plans/<plan id>.ndjson. */
export function planPath(ctx: Context, id: string): string {
  if (!/^[A-Za-z0-9-]{1,64}$/.test(id)) throw new UsageError('plan_id: not a plan id (give plan_id as ads_plan returned it)');
  return path.join(ctx.paths.state, 'mcp-plans', `${id}.ndjson`);
}

/** A row of a plan as a tool shows it: `row` is its place in the rows given (1 for the first). */
export interface PlanRow {
  row: number;
  id: string;
  result: DryRunRow['result'];
  /** `field: current -> new`. */
  changes: string;
}

export interface MadePlan {
  plan_id: string;
  plan_hash: string;
  account: string;
  resource: string;
  mode: BulkMode;
  rows: PlanRow[];
  counts: Record<string, number>;
}

type Cell = string | number | boolean | null;

/** Rows (objects of CSV columns) -> the CSV the bulk layer reads (its default dialect: commas, decimal points). */
function csvOf(rows: ReadonlyArray<Record<string, Cell>>): string {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: Cell | undefined) => {
    const text = value === undefined || value === null ? '' : String(value);
    return /[",\r\n]/.test(text) || text !== text.trim() ? `"${text.replace(/"/g, '""')}"` : text;
  };
  return [columns.map(cell).join(','), ...rows.map((row) => columns.map((c) => cell(row[c])).join(','))].join('\n') + '\n';
}

/** What a bulk run needs of the context, and the API origin and profile it runs against. */
export async function bulkDeps(ctx: Context) {
  const client = await ctx.client();
  const profile = (await ctx.profile()).name;
  return {
    client,
    profile,
    origin: new URL(client.http.baseUrl).origin,
    deps: {
      api: client.ads,
      stdin: ctx.io.stdin,
      tmpdir: ctx.env.TMPDIR,
      signal: ctx.signal,
      runsDir: ctx.paths.runs,
      now: () => ctx.clock.now(),
      sleep: (ms: number, signal: AbortSignal) => ctx.clock.sleep(ms, signal),
    },
  };
}

/** A dry run that writes its plan, kept under the plan's id: nothing is sent. */
async function dryRunPlan(
  ctx: Context,
  made: { resource: AdsResource; mode: BulkMode; scope: AdsScope; source: BulkSource; command: string; rowOf: (line: number) => number },
): Promise<MadePlan> {
  const { deps, origin, profile } = await bulkDeps(ctx);
  const dir = path.join(ctx.paths.state, 'mcp-plans');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const draft = path.join(dir, `draft-${randomUUID()}.ndjson`);
  const rows: PlanRow[] = [];
  const plan: BulkPlan = {
    resource: made.resource,
    mode: made.mode,
    scope: made.scope,
    source: made.source,
    dryRun: true,
    skipInvalid: true,
    writePlan: draft,
    target: { origin, profile },
    about: { command: made.command, argv: [], profile },
  };
  const outcome = await runBulkPlan(plan, deps, {
    dryRun: async (each) => {
      for await (const row of each) rows.push({ row: made.rowOf(row.line), id: row.id, result: row.result, changes: row.changes });
    },
    results: () => Promise.resolve(),
  });
  if (outcome.interrupted) throw new UsageError('interrupted: the plan was not made');
  const header = await readPlanHeader(draft);
  const file = planPath(ctx, header.id);
  fs.renameSync(draft, file);
  const verified = await verifyPlan(file, made.resource.idField);
  return {
    plan_id: header.id,
    plan_hash: verified.sha256,
    account: made.scope.account,
    resource: made.resource.wrapper,
    mode: made.mode,
    rows,
    counts: { ...outcome.preview },
  };
}

/** ads_plan: validates the rows and reads the current values; writes only the plan file. */
export async function makePlan(
  ctx: Context,
  input: { account: string; resource: string; mode: BulkMode; rows: ReadonlyArray<Record<string, Cell>>; campaign?: string; ad_group?: string },
): Promise<MadePlan> {
  const resource = resourceNamed(input.resource, 'resource');
  if (input.rows.length === 0) throw new UsageError('rows: give at least one row');
  const dir = path.join(ctx.paths.state, 'mcp-plans');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const csv = path.join(dir, `rows-${randomUUID()}.csv`);
  fs.writeFileSync(csv, csvOf(input.rows), { mode: 0o600 });
  const scope: AdsScope = {
    account: input.account,
    ...(input.campaign ? { campaign: input.campaign } : {}),
    ...(input.ad_group ? { adGroup: input.ad_group } : {}),
  };
  try {
    return await dryRunPlan(ctx, {
      resource,
      mode: input.mode,
      scope,
      source: { csv },
      command: `mcp ads_plan ${resource.wrapper} ${input.mode}`,
      rowOf: (line) => line - 1,
    });
  } catch (error) {
    // (the rows came as `rows`, not a file: line 2 of the CSV is row 1)
    if (error instanceof UsageError)
      throw new UsageError(error.message.replace(/--from-csv: /g, 'rows: ').replace(/\bline (\d+)/g, (_, n: string) => `row ${Number(n) - 1}`));
    throw error;
  } finally {
    fs.rmSync(csv, { force: true });
  }
}

/** ads_runs_undo: the undo of a run, as a plan (it patches each row back to what the run replaced). */
export async function undoPlan(ctx: Context, name: string): Promise<MadePlan> {
  const found = findRun(ctx.paths.runs, name);
  if (!found) throw new UsageError(`run: no run ${name} in ${ctx.paths.runs} (see ads_runs_list)`);
  const done = undoOf(listRuns(ctx.paths.runs), found.run, found.record.started);
  if (done?.status === 'done') throw new UsageError(`run: ${found.run} was undone already by run ${done.run}`);
  const { record, rows } = await readHistory(found.path);
  if (!record.scope) throw new UsageError(`run: ${found.run} was written by an earlier version of platform, which did not keep the values a run replaced`);
  if (unknownCreates(rows).length) throw new UsageError(`run: ${found.run} was stopped with creates never answered: resume it first`);
  const resource = resourceNamed(record.resource, 'resource');
  const undo: PlannedRow[] = undoRows(rows, resource, record.mode);
  if (undo.length === 0) throw new UsageError(`run: ${found.run} changed nothing: nothing to undo`);
  return await dryRunPlan(ctx, {
    resource,
    mode: 'patch',
    scope: record.scope,
    source: { planned: undo, force: false },
    rowOf: (line) => line,
    command: `mcp ads_runs_undo ${found.run}`,
  });
}
