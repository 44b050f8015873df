// What every ads create/patch command does around the bulk library: picks the input
// (flags, --from-csv, --from-json), streams results and dry-run rows to the output layer,
// draws progress, prints the summary, and ends with the right typed error.
import type { AdsResource, AdsScope } from '../../api/ads-resources.js';
import type { Context } from '../../context.js';
import { DEFAULT_BATCH_SIZE, runBulkPlan, type BulkOutcome, type BulkSource } from '../../bulk/pipeline.js';
import type { BulkMode } from '../../bulk/input/csv-columns.js';
import { UsageError } from '../../base/errors.js';
import { summaryLine } from '../../output/progress.js';
import { resolveFormat } from '../../output/format.js';
import { writeRows } from '../../output/rows.js';
import { write } from '../../base/stream-write.js';
import type { ResultRow } from '../../bulk/results.js';
import { dryRunView, resultView } from '../../output/views/results.js';
import { previewLine } from '../../bulk/plan/dry-run.js';
import { conflictsLine, endError, removeJournal, runEnd, settleSingleJournal, summarized } from '../../bulk/outcome.js';
import { flagProblem } from './flags.js';
import type { BulkFlags } from './spec.js';
import { quoteArgs, resumeCommand } from '../quote.js';
import { parseShard } from '../../bulk/shard.js';
import { sameFile } from '../../base/part-file.js';

export interface WriteRequest {
  /** The command line, for the command that resumes an interrupted run. */
  argv: readonly string[];
  resource: AdsResource;
  mode: BulkMode;
  scope: AdsScope;
  flags: BulkFlags;
  /** Rows from elsewhere than the input flags: a plan (`apply`) or an undo (`runs undo`). */
  source?: BulkSource;
  /** The run an undo undoes, and when it started (kept in its journal). */
  undoes?: string;
  undoesStarted?: string;
  /** The plan an apply applies (kept in its journal). */
  plan?: string;
  /** The field flags given on the command line (they conflict with --from-csv/--from-json). */
  fieldFlags: string[];
  /** The one row built from flags, as CSV cells (throws a UsageError naming a flag). */
  fromFlags: () => Record<string, string>;
}

function sourceOf(request: WriteRequest, ctx: Context): BulkSource {
  const { flags, fieldFlags } = request;
  if (request.source) return request.source;
  if (flags.fromCsv !== undefined && flags.fromJson !== undefined) throw new UsageError('--from-csv and --from-json cannot be used together');
  const fileFlag = flags.fromCsv !== undefined ? '--from-csv' : flags.fromJson !== undefined ? '--from-json' : undefined;
  if (fileFlag && fieldFlags.length) throw new UsageError(`${fileFlag} cannot be combined with ${fieldFlags.join(', ')}`);
  if (flags.fromCsv !== undefined) return { csv: flags.fromCsv, dialect: ctx.globals.csv };
  if (flags.fromJson !== undefined) return { json: flags.fromJson };
  return { row: request.fromFlags, problem: flagProblem };
}

/** Runs the write; returns how it went when it ended well (exit 0), else throws the error it ends with. */
export async function runWrite(ctx: Context, request: WriteRequest): Promise<BulkOutcome> {
  const source = sourceOf(request, ctx);
  const { flags } = request;
  const shard = flags.shard === undefined ? undefined : parseShard(flags.shard);
  if (flags.maxRate !== undefined && !(flags.maxRate > 0)) throw new UsageError('--max-rate: give requests per second above 0 (e.g. 5 or 0.5)');
  if (flags.plan !== undefined && !flags.dryRun)
    throw new UsageError('--plan writes the plan of a dry run: add --dry-run (then send it with platform ads apply FILE)');
  // A plan and a journal are read back (`ads apply FILE`, `--resume FILE`): files, never stdout.
  if (flags.plan === '-') throw new UsageError('--plan: give a file name (the plan is applied from it with platform ads apply FILE), not -');
  if (flags.journal === '-') throw new UsageError('--journal: give a file name (the run is resumed from it with --resume FILE), not -');
  // The plan replaces FILE once whole: its own input would be gone.
  const input = 'csv' in source ? ['--from-csv', source.csv] : 'json' in source ? ['--from-json', source.json] : undefined;
  if (flags.plan !== undefined && input && input[1] !== '-' && sameFile(flags.plan, input[1]!))
    throw new UsageError(`--plan: ${flags.plan} is the input (${input[0]}); name another file for the plan`);
  const client = await ctx.client();
  if (flags.maxRate !== undefined) client.http.governor?.limit(flags.maxRate);
  const started = ctx.clock.now();
  const about = {
    command: quoteArgs(request.argv),
    argv: [...request.argv],
    profile: (await ctx.profile()).name,
    ...(request.undoes ? { undoes: request.undoes } : {}),
    ...(request.undoesStarted ? { undoesStarted: request.undoesStarted } : {}),
    ...(request.plan ? { plan: request.plan } : {}),
  };
  // One item from flags, for a person at a terminal: a sentence, not a one-row batch table.
  const single = 'row' in source;
  const sentence = single && resolveFormat(ctx) === 'table';
  let progress: ReturnType<Context['progress']> | undefined;
  let journalFile: string | undefined;
  /** The one item's row when it was found invalid against the current resource (after the read, before any write). */
  let invalid: ResultRow | undefined;
  const noting = async function* (rows: AsyncIterable<ResultRow>): AsyncIterable<ResultRow> {
    for await (const row of rows) {
      if (single && row.result === 'invalid') invalid = row;
      yield row;
    }
  };
  // A reader that stops reading (`| head`) closes stdout: the run winds down as on Ctrl-C (its
  // batches in flight answered and journaled, the rest not sent) and says how to finish it.
  const stdoutClosed = new AbortController();
  const onStdoutError = (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') stdoutClosed.abort(new Error('stdout closed'));
  };
  ctx.io.stdout.on('error', onStdoutError);
  const outcome = await runBulkPlan(
    {
      resource: request.resource,
      mode: request.mode,
      scope: request.scope,
      source,
      dryRun: flags.dryRun,
      skipInvalid: flags.skipInvalid,
      batchSize: flags.batchSize,
      concurrency: flags.concurrency,
      resume: flags.resume,
      journal: flags.journal,
      shard,
      writePlan: flags.plan,
      target: { origin: new URL(client.http.baseUrl).origin, profile: about.profile },
      about,
    },
    {
      api: client.ads,
      stdin: ctx.io.stdin,
      tmpdir: ctx.env.TMPDIR,
      signal: AbortSignal.any([ctx.signal, stdoutClosed.signal]),
      runsDir: ctx.paths.runs,
      now: () => ctx.clock.now(),
      sleep: (ms, signal) => ctx.clock.sleep(ms, signal),
      // A bulk run says where its journal is; a single item's is kept only if it changed something or can be resumed (below).
      onJournal: (file, rows) => {
        journalFile = file;
        // A shard names its journal whatever its share of the rows: an orchestrator resumes from it.
        if (rows > 1 || shard) ctx.info(`Journal: ${file}`);
        // The progress starts with the send pass: its rate and ETA count from here, not from the first row back.
        progress ??= ctx.progress(rows, flags.batchSize ?? DEFAULT_BATCH_SIZE);
      },
      onProgress: (tally, total) => {
        progress ??= ctx.progress(total, flags.batchSize ?? DEFAULT_BATCH_SIZE);
        progress.update(tally);
      },
    },
    {
      // Only a single item's row is noted: a bulk run's rows go straight through (a generator step per row costs).
      results: (rows) => (sentence ? writeSentence(ctx, request, source, noting(rows)) : writeRows(ctx, resultView, single ? noting(rows) : rows)),
      dryRun: (rows) => writeRows(ctx, dryRunView, rows),
    },
  )
    .catch((error: unknown) => {
      // A single item that ended with an error (its read failed) sent nothing: nothing to resume.
      if (single) removeJournal(journalFile, named(request));
      throw error;
    })
    .finally(() => ctx.io.stdout.off('error', onStdoutError));
  progress?.clear();
  const unanswered = single && (await settleSingleJournal(outcome, named(request)));
  const end = runEnd(outcome, { invalid, unanswered, stdoutClosed: stdoutClosed.signal.aborted && !ctx.signal.aborted, plan: flags.plan });
  if (summarized(end) && (outcome.rows > 1 || shard))
    ctx.info(outcome.dryRun ? previewLine(outcome.preview!) : summaryLine(outcome.tally, ctx.clock.now() - started));
  const conflicts = summarized(end) ? conflictsLine(outcome) : undefined;
  if (conflicts) ctx.info(conflicts);
  const error = endError(end, { resume: (journal) => resumeCommand(request.argv, journal), inFlags: inFlagWords });
  if (error) throw error;
  return outcome;
}

/** The user named the run's journal (--journal, --resume): it stays. */
function named(request: WriteRequest): boolean {
  return request.flags.journal !== undefined || request.flags.resume !== undefined;
}

/** `currency: currency EUR does not match ...` -> `--currency EUR does not match ...`. */
function inFlagWords(message: string): string {
  const match = /^([a-z_.]+): ([\s\S]*)$/.exec(message);
  return match ? flagProblem(match[1]!, match[2]!) : message;
}

/** `Created campaign <id> "Spring promo"` / `Updated ad group <id>`; a failed item says nothing here (its error line follows). */
async function writeSentence(ctx: Context, request: WriteRequest, source: BulkSource, rows: AsyncIterable<ResultRow>): Promise<void> {
  const cells = 'row' in source ? source.row() : {};
  for await (const row of rows) {
    if (row.result === 'unchanged') await write(ctx.io.stdout, `Nothing to change in ${request.resource.noun} ${row.id}\n`);
    if (row.result !== 'ok') continue;
    const name = cells.name !== undefined ? ` "${cells.name}"` : '';
    await write(ctx.io.stdout, `${request.mode === 'create' ? 'Created' : 'Updated'} ${request.resource.noun} ${row.id}${name}\n`);
  }
}
