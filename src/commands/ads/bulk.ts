// The one path every ads create/patch takes: rows from flags, --from-csv or --from-json
// -> validation pass (spooled to disk) -> dry run, or batches sent concurrently -> one
// result per row, in input order.
import type { z } from 'zod';
import type { Context } from '../../context.js';
import { EXIT, UsageError } from '../../errors.js';
import type { BatchResult } from '../../schemas/ads.js';
import { MAX_BATCH_ITEMS } from '../../schemas/limits.js';
import type { BatchOptions } from '../../api/ads.js';
import type { RetryPolicy } from '../../api/retry.js';
import { DEFAULT_RETRY } from '../../api/retry.js';
import { writeRows } from '../../output/rows.js';
import { dryRunView, resultView } from '../../output/views/results.js';
import type { ResultRow } from '../../bulk/results.js';
import { unknownColumns, type BulkMode, type BulkResource } from '../../bulk/csv-columns.js';
import { describeProblem, mapRow, validateItem, type RowProblem } from '../../bulk/row-mapping.js';
import { csvRows, jsonRows, openInput } from '../../bulk/sources.js';
import { Spool } from '../../bulk/spool.js';
import { runBulk, type Batch } from '../../bulk/runner.js';
import { readSucceeded } from '../../bulk/resume.js';
import { ProgressBar, summaryLine, tallyTotal, type Tally } from '../../output/progress.js';
import { dryRun, type Lookup } from '../../bulk/dry-run.js';
import { describeZodError } from '../../schemas/issues.js';
import { validateFlags } from './flags.js';

export const DEFAULT_BATCH_SIZE = 500;
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;
/** Batches get more attempts than interactive calls: a long run on a flaky network should not lose rows. */
const BULK_RETRY: RetryPolicy = { ...DEFAULT_RETRY, attempts: 8 };
/** How many invalid rows are listed before "and N more". */
const SHOWN_PROBLEMS = 20;

export interface BulkFlags {
  fromCsv?: string;
  fromJson?: string;
  dryRun?: boolean;
  skipInvalid?: boolean;
  batchSize?: number;
  concurrency?: number;
  resume?: string;
}

export interface BulkTarget {
  /** CSV is read for campaigns and ad groups; ads take flags or JSON. */
  resource: BulkResource | 'ads';
  mode: BulkMode;
  /** The API body's array key, e.g. "campaigns". */
  wrapper: string;
  idField: string;
  schema: z.ZodType;
  /** Field flags given on the command line (they conflict with --from-csv/--from-json). */
  fieldFlags: string[];
  /** The one item built from flags (throws UsageError naming a flag). */
  fromFlags: () => Record<string, unknown>;
  /** Default campaign of each row (ad groups: --campaign). */
  campaign?: string;
  /** Ad groups need a campaign per row. */
  needsCampaign?: boolean;
  /** Sends one batch with the given options (idempotency key, bulk retry policy, signal). */
  send: (batch: Batch, options: BatchOptions) => Promise<BatchResult[]>;
  /** Current resources, for --dry-run of a patch. */
  lookup?: Lookup;
}

/** The flags (as --kebab-case) among `keys` that were given. */
export function givenFlags(flags: object, keys: string[]): string[] {
  const values = flags as Record<string, unknown>;
  return keys.filter((key) => values[key] !== undefined && values[key] !== false).map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
}

export async function runBulkCommand(ctx: Context, target: BulkTarget, flags: BulkFlags): Promise<number> {
  const batchSize = flags.batchSize ?? DEFAULT_BATCH_SIZE;
  const concurrency = flags.concurrency ?? DEFAULT_CONCURRENCY;
  if (batchSize < 1 || batchSize > MAX_BATCH_ITEMS) throw new UsageError(`--batch-size must be from 1 to ${MAX_BATCH_ITEMS}`);
  if (concurrency < 1 || concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency must be from 1 to ${MAX_CONCURRENCY}`);
  if (flags.fromCsv !== undefined && flags.fromJson !== undefined) throw new UsageError('--from-csv and --from-json cannot be used together');
  const fromFile = flags.fromCsv ?? flags.fromJson;
  if (fromFile !== undefined && target.fieldFlags.length) {
    throw new UsageError(`${flags.fromCsv !== undefined ? '--from-csv' : '--from-json'} cannot be combined with ${target.fieldFlags.join(', ')}`);
  }
  if (flags.fromCsv !== undefined && target.resource === 'ads') throw new UsageError('--from-csv is not available for ads; use --from-json');
  const alreadyDone = flags.resume ? await readSucceeded(flags.resume) : undefined;

  const spool = new Spool(ctx.env.TMPDIR);
  try {
    const problems = await validationPass(ctx, target, flags, spool);
    if (spool.invalid && !flags.skipInvalid) {
      for (const p of problems) ctx.info(`${p.where}: ${describeProblem(p)}`);
      if (spool.invalid > problems.length) ctx.info(`... and ${spool.invalid - problems.length} more`);
      throw new UsageError(`${spool.invalid} of ${spool.rows} rows are invalid; nothing was sent (fix them, or add --skip-invalid to send the rest)`);
    }
    if (flags.dryRun) {
      await writeRows(ctx, dryRunView, dryRun(spool.read(), target.idField, target.mode === 'patch' ? target.lookup : undefined));
      return spool.invalid ? EXIT.failure : EXIT.ok;
    }
    return await sendPass(ctx, target, spool, { batchSize, concurrency, alreadyDone });
  } finally {
    await spool.remove();
  }
}

type LocatedProblem = RowProblem & { where: string };

async function validationPass(ctx: Context, target: BulkTarget, flags: BulkFlags, spool: Spool): Promise<LocatedProblem[]> {
  const problems: LocatedProblem[] = [];
  const add = async (line: number, mapped: ReturnType<typeof validateItem>, unit: 'line' | 'item' = 'line') => {
    let result = mapped;
    if (result.ok && target.needsCampaign) {
      const campaignId = result.campaignId ?? target.campaign;
      result = campaignId ? { ...result, campaignId } : { ok: false, problem: { field: 'campaign_id', message: 'campaign_id is required (a column, or --campaign)' } };
    }
    if (result.ok) {
      await spool.add({ line, item: result.item, campaignId: result.campaignId });
    } else {
      if (problems.length < SHOWN_PROBLEMS) problems.push({ where: `${unit} ${line}`, ...result.problem });
      await spool.add({ line, problem: result.problem });
    }
  };
  if (flags.fromCsv !== undefined) {
    const resource = target.resource as BulkResource;
    const rows = csvRows(openInput(flags.fromCsv, ctx.io.stdin, '--from-csv'), (header) => {
      const unknown = unknownColumns(resource, header);
      if (unknown.length) throw new UsageError(`--from-csv: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map((c) => `"${c}"`).join(', ')} (see --help for the columns)`);
    });
    for await (const row of rows) {
      if (row.fieldCountProblem) await add(row.line, { ok: false, problem: { field: 'row', message: row.fieldCountProblem } });
      else await add(row.line, mapRow(resource, target.mode, row.cells));
    }
  } else if (flags.fromJson !== undefined) {
    for await (const row of jsonRows(openInput(flags.fromJson, ctx.io.stdin, '--from-json'), target.wrapper)) {
      await add(row.line, target.resource === 'ads' ? schemaOnly(target.schema, row.value) : validateItem(target.resource, target.mode, row.value), row.unit);
    }
  } else {
    const item = validateFlags(target.schema, target.fromFlags()) as Record<string, unknown>;
    await add(1, { ok: true, item });
  }
  await spool.close();
  if (spool.rows === 0) throw new UsageError('the input has no rows');
  return problems;
}

function schemaOnly(schema: z.ZodType, value: unknown): ReturnType<typeof validateItem> {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, item: result.data as Record<string, unknown> };
  return { ok: false, problem: { field: 'item', message: describeZodError(result.error).replace(/^item: /, '') } };
}

async function sendPass(
  ctx: Context,
  target: BulkTarget,
  spool: Spool,
  options: { batchSize: number; concurrency: number; alreadyDone?: Map<number, string> },
): Promise<number> {
  const tally: Tally = { ok: 0, failed: 0, invalid: 0, skipped: 0 };
  let appliedEarlier = 0;
  const started = ctx.clock.now();
  const progress = ctx.io.stderrIsTTY && spool.rows > 1 ? new ProgressBar(ctx.io.stderr, spool.rows, ctx.clock) : undefined;
  let lastFailure: ResultRow | undefined;
  const count = (row: ResultRow) => {
    if (row.error_code === 'AlreadyApplied') appliedEarlier++;
    if (row.result === 'failed') lastFailure = row;
    tally[row.result === 'ok' ? 'ok' : row.result === 'failed' ? 'failed' : row.result === 'invalid' ? 'invalid' : 'skipped']++;
    progress?.update(tally);
  };
  const inFlight = new AbortController().signal;
  const results = runBulk({
    rows: spool.read(),
    batchSize: options.batchSize,
    concurrency: options.concurrency,
    idField: target.idField,
    alreadyDone: options.alreadyDone,
    signal: ctx.signal,
    onResult: count,
    // Batches in flight may finish after Ctrl-C (their rows then get real results), so their
    // requests get a signal that never aborts; the runner stops sending new ones.
    send: (batch) => target.send(batch, { idempotencyKey: batch.idempotencyKey, retry: BULK_RETRY, signal: inFlight }),
  });
  await writeRows(ctx, resultView, results);
  progress?.clear();
  if (spool.rows > 1) ctx.info(summaryLine(tally, ctx.clock.now() - started));
  else if (lastFailure) ctx.info(`${lastFailure.error_code}: ${lastFailure.error_message}`); // one item: the usual one-line error
  if (ctx.signal.aborted) return EXIT.interrupted;
  // Rows that succeeded in an earlier run (--resume) count as succeeded.
  return tallyTotal(tally) - tally.ok - appliedEarlier > 0 ? EXIT.failure : EXIT.ok;
}
