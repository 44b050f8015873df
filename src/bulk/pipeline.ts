// The one path every ads create/patch takes, as a library: rows from flags, --from-csv or
// --from-json -> validation pass (spooled to disk) -> dry run, or batches sent
// concurrently -> one result per row, in input order. It never prints: rows go to the
// caller's sinks, problems and progress to its callbacks; it returns the tally.
import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { AdsApi } from '../api/ads.js';
import type { AdsResource, AdsScope } from '../api/ads-resources.js';
import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { type AuthError, UsageError } from '../base/errors.js';
import { isJournal, Journal, readJournal, type JournalState } from './journal/journal.js';
import { lockJournal, type JournalLock } from './journal/journal-lock.js';
import { identifyRows, identityBase, occurrenceCounter, type IdentifiedRow, type RowIdentity } from './row-identity.js';
import { inShard, lineIdentity, shardFlag, shardName, shardPart, type Shard } from './shard.js';
import { checkResume, type ResumePlan } from './journal/resume-check.js';
import { currentLookup, type CurrentLookup } from './changes/current.js';
import { itemSchema } from './resource-schemas.js';
import { mergeWithCurrent } from './changes/merge.js';
import { judgedAgainstCurrent, stateProblems } from './changes/state-check.js';
import type { RowCounts } from '../base/io.js';
import type { CsvDialect } from '../base/csv-dialect.js';
import { backoffDelay, DEFAULT_RETRY, type RetryPolicy } from '../http/retry.js';
import { MAX_BATCH_ITEMS } from '../schemas/limits.js';
import { describeZodError } from '../schemas/issues.js';
import { shown } from '../schemas/input-limits.js';
import { otherSeparator, unknownColumns, type BulkMode, type BulkResource } from './input/csv-columns.js';
import { counted, dryRun, type DryRunCounts, type DryRunRow } from './plan/dry-run.js';
import { readSucceeded } from './journal/resume.js';
import type { ResultRow } from './results.js';
import { describeProblem, mapRow, validateItem, type MappedRow, type RowProblem } from './input/row-mapping.js';
import { earlierRunResult, runBulk } from './runner.js';
import { listRuns, shortRunName, undoOf } from './runs/runs.js';
import { checkPlanned } from './plan/plan-check.js';
import { PlanWriter, type PlanMaking } from './plan/plan.js';
import type { Expectation } from './changes/row-change.js';
import { csvRows, jsonRows, openInput } from './input/sources.js';
import { Spool, type PlanBatch } from './spool.js';

export const DEFAULT_BATCH_SIZE = 500;
export const DEFAULT_CONCURRENCY = 4;
export const MAX_CONCURRENCY = 16;
/** Batches get more attempts than interactive calls: a long run on a flaky network should not lose rows. */
export const BULK_RETRY: RetryPolicy = { ...DEFAULT_RETRY, attempts: 8 };
/** How many invalid rows the one line that refuses a run lists before "and N more". */
const SHOWN_PROBLEMS = 5;

export type Tally = RowCounts;

export function tallyTotal(t: Tally): number {
  return t.ok + t.unchanged + t.failed + t.invalid + t.skipped;
}

/** Where the rows come from: a file (or stdin), or the one item the command built from flags. */
/**
 * Where the rows come from: a file (or stdin), or the one row the command built from its
 * flags, as the CSV cells they stand for (`problem` words a problem of a column in flags).
 */
export type BulkSource =
  | { csv: string; dialect?: CsvDialect }
  | { json: string }
  | { row: () => Record<string, string>; problem: (column: string, message: string) => string }
  | {
      planned: AsyncIterable<PlannedRow> | Iterable<PlannedRow>;
      force: boolean;
      /** A plan's requests (plan.ts): rows per key, for the rows that name one (`batch`). */
      batches?: ReadonlyMap<string, number>;
    };

/**
 * A row of a plan (plan.ts) or of an undo (undo.ts): its request item, sent only while its
 * resource is as expected (plan-check.ts; `force`: sent anyway); `problem`: it cannot be sent at all.
 */
export interface PlannedRow {
  line: number;
  request: Record<string, unknown>;
  campaignId?: string;
  expect?: Expectation;
  problem?: RowProblem;
  /** A plan's row: the request it goes in, under the plan's key (runner.ts). */
  batch?: PlanBatch;
}

/** What `runs list` says of a run, besides its resource and mode (journal.ts, RunRecord). */
export interface RunAbout {
  command: string;
  /** The command's arguments, for the command that resumes the run. */
  argv: string[];
  profile: string;
  /** The run it undoes (`runs undo`), and when that run started. */
  undoes?: string;
  undoesStarted?: string;
  /** The plan it applies (`ads apply`; plan.ts, planIdentity). */
  plan?: string;
}

export interface BulkPlan {
  resource: AdsResource;
  mode: BulkMode;
  scope: AdsScope;
  source: BulkSource;
  dryRun?: boolean;
  skipInvalid?: boolean;
  batchSize?: number;
  concurrency?: number;
  /** An earlier run's journal (or results): rows finished there are not sent again. */
  resume?: string;
  /** Where to keep this run's journal (default: a new file in `runsDir`). */
  journal?: string;
  /** Only the rows of this shard (shard.ts): the others are neither sent nor reported. */
  shard?: Shard;
  /** A dry run also writes its plan here (plan.ts). */
  writePlan?: string;
  /** The API origin and the profile the run is made with (a plan records them, with the account). */
  target?: { origin: string; profile: string };
  /** Kept in the journal for `runs list`. */
  about?: RunAbout;
}

export interface BulkDeps {
  api: AdsApi;
  stdin: Readable;
  tmpdir?: string;
  /** Aborts on Ctrl-C: no new batch is sent; batches in flight finish. */
  signal: AbortSignal;
  /** Called after each result, with the running tally and the number of rows. */
  onProgress?: (tally: Tally, total: number) => void;
  /** The directory of journals ($XDG_STATE_HOME/platform/runs). */
  runsDir: string;
  /** Told where the journal is, once it is open, and how many rows the run has. */
  onJournal?: (path: string, rows: number) => void;
  now: () => number;
  /** Waits `ms` (the back-off before items that failed transiently are sent again); ends early on Ctrl-C. */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

export interface BulkSinks {
  results: (rows: AsyncIterable<ResultRow>) => Promise<unknown>;
  dryRun: (rows: AsyncIterable<DryRunRow>) => Promise<unknown>;
}

export interface BulkOutcome {
  tally: Tally;
  /** Rows of the input this run takes (all, or its shard's). */
  rows: number;
  /** Rows reported as succeeded in an earlier run (--resume). */
  appliedEarlier: number;
  /** The last failed row, for the one-line error of a single item. */
  lastFailure?: ResultRow;
  dryRun: boolean;
  /** A dry run's rows by what the run would do with them. */
  preview?: DryRunCounts;
  /** Stopped (Ctrl-C, a signal) with rows left unsent; a stop after the last batch is not an interruption. */
  interrupted: boolean;
  /** The journal of this run, kept while something is left to resume. */
  journal?: string;
  /** The journal could not be written (a full disk): the rows from there on were not sent. */
  journalFailure?: { path: string; error: Error };
  /** Credentials refused for a whole batch: the run stopped there. */
  refused?: AuthError;
}

/** The CSV columns of a resource. */
function csvResource(resource: AdsResource): BulkResource | undefined {
  return resource.wrapper;
}

function checkPlan(plan: BulkPlan): void {
  const batchSize = plan.batchSize ?? DEFAULT_BATCH_SIZE;
  const concurrency = plan.concurrency ?? DEFAULT_CONCURRENCY;
  if (batchSize < 1 || batchSize > MAX_BATCH_ITEMS) throw new UsageError(`--batch-size must be from 1 to ${MAX_BATCH_ITEMS}`);
  if (concurrency < 1 || concurrency > MAX_CONCURRENCY) throw new UsageError(`--concurrency must be from 1 to ${MAX_CONCURRENCY}`);
  if ('csv' in plan.source && !csvResource(plan.resource)) throw new UsageError(`--from-csv is not available for ${plan.resource.wrapper}; use --from-json`);
  if (plan.shard && 'row' in plan.source) throw new UsageError('--shard splits an input: use it with --from-csv or --from-json');
}

export async function runBulkPlan(plan: BulkPlan, deps: BulkDeps, sinks: BulkSinks): Promise<BulkOutcome> {
  checkPlan(plan);
  const resumingJournal = plan.resume !== undefined && isJournal(plan.resume);
  // One run per journal: taken before it is read, so that no other run is adding to it meanwhile.
  const journalPath = resumingJournal
    ? plan.resume!
    : (plan.journal ??
      path.join(
        deps.runsDir,
        `${new Date(deps.now()).toISOString().replace(/[:.]/g, '-')}-${plan.mode}-${plan.resource.wrapper}${shardPart(plan.shard)}-${randomUUID().slice(0, 8)}.ndjson`,
      ));
  let lock: JournalLock | undefined;
  /** Why the lock (so the journal) could not be written, when it could not: the run then sends nothing. */
  let lockFailure: unknown;
  if (!plan.dryRun) {
    try {
      lock = lockJournal(journalPath, resumingJournal ? '--resume' : '--journal', new Date(deps.now()));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      lockFailure = error;
    }
  }
  try {
    if (!plan.dryRun && !resumingJournal && plan.journal !== undefined && fs.existsSync(plan.journal)) {
      throw new UsageError(`--journal: ${plan.journal} already exists (resume its run with --resume ${plan.journal}, or name a new file)`);
    }
    const resumeFrom = resumingJournal ? await readJournal(plan.resume!) : undefined;
    if (resumeFrom && (resumeFrom.run.resource !== plan.resource.wrapper || resumeFrom.run.mode !== plan.mode)) {
      throw new UsageError(`--resume: ${plan.resume} is the journal of a ${resumeFrom.run.mode} of ${resumeFrom.run.resource}, not of this command`);
    }
    // A shard's journal holds only its rows: resumed as another shard (or unsharded), the others' rows would be sent twice.
    if (resumeFrom && resumeFrom.run.shard !== (plan.shard && shardName(plan.shard))) {
      throw new UsageError(`--shard: ${plan.resume} is the journal of a run with ${shardFlag(resumeFrom.run.shard)}; resume it with the same`);
    }
    if (resumeFrom) refuseUndone(deps.runsDir, plan.resume!, resumeFrom.run.started);
    const alreadyDone = plan.resume && !resumingJournal ? await readSucceeded(plan.resume, plan.mode) : undefined;
    return await runWithSpool(plan, deps, sinks, { journalPath, resumingJournal, resumeFrom, alreadyDone, lockFailure });
  } finally {
    lock?.release();
  }
}

/** A run that has been undone is not resumed: its rows not yet sent would be applied over the undo. */
function refuseUndone(runsDir: string, journal: string, started: string): void {
  const run = path.basename(journal, '.ndjson');
  const undo = undoOf(listRuns(runsDir), run, started);
  if (undo) {
    throw new UsageError(
      `--resume: run ${shortRunName(run)} was undone by run ${shortRunName(undo.run)}, so it is not resumed (its rows not yet sent would be applied over the undo); ` +
        'to make these changes again, run the command without --resume',
    );
  }
}

interface RunSetup {
  journalPath: string;
  resumingJournal: boolean;
  resumeFrom?: JournalState;
  alreadyDone?: Map<string, string>;
  lockFailure: unknown;
}

async function runWithSpool(plan: BulkPlan, deps: BulkDeps, sinks: BulkSinks, setup: RunSetup): Promise<BulkOutcome> {
  const { resumeFrom, alreadyDone, resumingJournal } = setup;
  const spool = new Spool(deps.tmpdir);
  try {
    // Every shard validates the whole input, so an invalid row anywhere stops every shard alike.
    const { problems, invalid, total, judged } = await validationPass(plan, deps, spool);
    if (invalid && !plan.skipInvalid) refuseInvalid(problems, invalid, `${invalid} of ${total} rows are invalid`);
    const { idField } = plan.resource;
    const rows = () => identifyRows(spool.read(), plan.mode, idField);
    // A resumed run reports the rows an earlier run settled as it did, unsent (runner.ts): the
    // check below leaves them out, and a dry run foretells them and leaves them out of its plan.
    const earlier = resumeFrom || alreadyDone ? (row: RowIdentity & { line: number }) => earlierRunResult(row, alreadyDone, resumeFrom) : undefined;
    // A dry run reports these rows itself; the one row of flags is merged before it is sent, and
    // its problem is the command's error; a plan's rows were judged when it was made, and are
    // checked against its values (plan-check.ts).
    let unreadable: Error | undefined;
    if (judged && !plan.skipInvalid && !plan.dryRun && !('row' in plan.source) && !('planned' in plan.source)) {
      unreadable = await refuseAgainstCurrent(
        plan,
        deps,
        rows(),
        { judged, settled: (row) => earlier?.(row) !== undefined },
        plan.shard ? `${spool.rows} rows of shard ${shardName(plan.shard)}` : `${total} rows`,
      );
    }
    // The input against the journal, row by row, before anything is sent (an edited applied row is refused).
    const resume: ResumePlan = resumeFrom ? await checkResume(rows(), resumeFrom, plan.mode, idField, plan.resume!) : { resend: [], abandoned: [] };
    const tally: Tally = { ok: 0, unchanged: 0, failed: 0, invalid: 0, skipped: 0 };
    // A patch's partial changes to nested objects are made whole from the current resources.
    const schema = itemSchema(plan.resource, plan.mode);
    // One row (a patch from flags) reads as any interactive command does, and a failed read is
    // its error; a bulk run's read gets the batches' attempts, and a failed one leaves its rows unsent.
    const bulk = total > 1;
    // A check that could not read the current state: every row is reported not sent, with the
    // reason, and is left for a resume, as when the run's own read fails.
    const lookup: CurrentLookup = unreadable
      ? () => Promise.reject(unreadable)
      : currentLookup(deps.api, plan.resource, plan.scope, spool.rows, bulk ? BULK_RETRY : undefined);
    const resending = new Set(resume.resend.flatMap((batch) => batch.rows));
    const merged = () =>
      'planned' in plan.source
        ? checkPlanned(rows(), { idField, lookup, signal: deps.signal, resend: (key) => resending.has(key), force: plan.source.force, reportUnread: bulk })
        : plan.mode === 'patch'
          ? mergeWithCurrent(rows(), idField, schema, lookup, deps.signal, (key) => resending.has(key), bulk)
          : rows();
    const outcome: BulkOutcome = { tally, rows: spool.rows, appliedEarlier: 0, dryRun: Boolean(plan.dryRun), interrupted: false };
    if (plan.dryRun) {
      const preview: DryRunCounts = (outcome.preview = {});
      const planWriter = plan.writePlan === undefined ? undefined : PlanWriter.open(plan.writePlan, planMaking(plan, deps), idField, earlier);
      let whole = false;
      try {
        await sinks.dryRun(counted(dryRun(planWriter ? planWriter.rows(merged()) : merged(), idField, plan.mode, earlier), preview));
        // A stop ends the rows early, without an error: what was written is not the whole plan.
        whole = !deps.signal.aborted;
      } finally {
        await (whole ? planWriter?.commit() : planWriter?.discard());
      }
      outcome.interrupted = deps.signal.aborted;
      return outcome;
    }
    let unsentByStop = 0;
    const count = (row: ResultRow) => {
      if (row.error_code === 'AlreadyApplied') outcome.appliedEarlier++;
      if (row.error_code === 'Interrupted') unsentByStop++;
      if (row.result === 'failed') outcome.lastFailure = row;
      if (row.result === 'conflict') tally.conflict = (tally.conflict ?? 0) + 1;
      tally[row.result === 'conflict' ? 'failed' : row.result]++;
      deps.onProgress?.(tally, spool.rows);
    };
    // Batches in flight may finish after Ctrl-C (their rows then get real results), so their
    // requests get a signal that never aborts; the runner stops sending new ones.
    // (one per request: a shared signal would collect every request's abort listener)
    const inFlight = () => new AbortController().signal;
    const journal = openJournal(setup, plan, deps, spool.rows);
    await journal.abandon(resume.abandoned);
    outcome.journal = journal.path;
    deps.onJournal?.(journal.path, spool.rows);
    try {
      await sinks.results(
        runBulk({
          rows: merged(),
          batchSize: plan.batchSize ?? DEFAULT_BATCH_SIZE,
          concurrency: plan.concurrency ?? DEFAULT_CONCURRENCY,
          idField,
          alreadyDone,
          resumeFrom,
          resend: resume.resend,
          ...('planned' in plan.source && plan.source.batches ? { planBatches: plan.source.batches } : {}),
          journal,
          signal: deps.signal,
          onResult: count,
          onRefused: (error) => (outcome.refused ??= error),
          // After Ctrl-C the batches in flight finish at once: their retries wait no longer.
          pause: (round) => deps.sleep(backoffDelay(BULK_RETRY, round, Math.random), deps.signal).catch(() => undefined),
          send: (batch) =>
            deps.api.sendBatch(
              plan.resource,
              { ...plan.scope, campaign: batch.campaignId ?? plan.scope.campaign },
              plan.mode === 'create' ? 'POST' : 'PATCH',
              batch.items,
              {
                idempotencyKey: batch.idempotencyKey,
                retry: BULK_RETRY,
                signal: inFlight(),
                ...(batch.replayed ? { onReplayed: batch.replayed } : {}),
              },
            ),
        }),
      );
      // A stop that came after the last batch left nothing unsent: the run ends as its results say.
      outcome.interrupted = deps.signal.aborted && unsentByStop > 0;
      // (`runs list`: a journal without this at its end was cut short by a kill)
      journal.end({
        ended: new Date(deps.now()).toISOString(),
        results: { ...tally },
        unfinished: failedRows(outcome),
        interrupted: outcome.interrupted || outcome.refused !== undefined,
      });
    } finally {
      journal.close();
    }
    if (journal.failure) {
      outcome.journalFailure = { path: journal.path, error: journal.failure };
      // Never created: the same command, without --resume, sends the rows.
      if (!fs.existsSync(journal.path)) outcome.journal = undefined;
    }
    // A journal in the runs directory is the run's history (`runs list`, `runs undo`) until `runs prune`;
    // one of a run that changed nothing and left nothing to resume goes (resumed or not). One the user named stays.
    const ours = resumingJournal ? path.resolve(path.dirname(journal.path)) === path.resolve(deps.runsDir) : plan.journal === undefined;
    const changedNothing = tally.ok === 0 && outcome.appliedEarlier === 0;
    if (ours && changedNothing && !outcome.interrupted && !outcome.refused && !outcome.journalFailure && failedRows(outcome) === 0) {
      fs.rmSync(journal.path, { force: true });
      outcome.journal = undefined;
    }
    return outcome;
  } finally {
    await spool.remove();
  }
}

/** This run's journal: the one resumed, or a new one; one that cannot be written makes the run send nothing. */
function openJournal(setup: RunSetup, plan: BulkPlan, deps: BulkDeps, rows: number): Journal {
  if (setup.lockFailure !== undefined) return Journal.unwritable(setup.journalPath, setup.lockFailure);
  try {
    const run = {
      resource: plan.resource.wrapper,
      mode: plan.mode,
      ...(plan.shard ? { shard: shardName(plan.shard) } : {}),
      ...(plan.about ? { ...plan.about, scope: plan.scope, rows } : {}),
    };
    return Journal.open(setup.journalPath, run, new Date(deps.now()), setup.resumingJournal);
  } catch (error) {
    return Journal.unwritable(setup.journalPath, error);
  }
}

/** A plan's header: what its rows are for, where, and when and how it was made. */
function planMaking(plan: BulkPlan, deps: BulkDeps): PlanMaking {
  return {
    id: randomUUID(),
    resource: plan.resource.wrapper,
    mode: plan.mode,
    scope: plan.scope,
    target: { origin: plan.target?.origin ?? '', account: plan.scope.account, profile: plan.target?.profile ?? plan.about?.profile ?? '' },
    created: new Date(deps.now()).toISOString(),
    ...(plan.about ? { command: plan.about.command } : {}),
    batch_size: plan.batchSize ?? DEFAULT_BATCH_SIZE,
  };
}

/** Rows that did not succeed, now or in an earlier run (--resume). */
export function failedRows(outcome: BulkOutcome): number {
  return tallyTotal(outcome.tally) - outcome.tally.ok - outcome.tally.unchanged - outcome.appliedEarlier;
}

type LocatedProblem = RowProblem & { where: string };

/** Bad input: each problem listed (the first ones), nothing sent, exit 2. */
/** Refuses the run in one line: how many rows are invalid, what to do, and the first few rows' problems ("and N more"). */
function refuseInvalid(problems: LocatedProblem[], invalid: number, count: string): never {
  const listed = problems.slice(0, SHOWN_PROBLEMS).map((p) => `${p.where}: ${describeProblem(p)}`);
  if (invalid > listed.length) listed.push(`and ${invalid - listed.length} more`);
  throw new UsageError(`${count}; nothing was sent (fix them, or add --skip-invalid to send the rest): ${listed.join('; ')}`);
}

/**
 * Refuses the run, nothing sent, when one of the `judged` rows is at fault against the current
 * resources (state-check.ts). Returns why they could not be read, when they could not (after
 * the reads' retries).
 */
async function refuseAgainstCurrent(
  plan: BulkPlan,
  deps: BulkDeps,
  rows: AsyncIterable<IdentifiedRow[]>,
  { judged, settled }: { judged: number; settled: (row: RowIdentity & { line: number }) => boolean },
  of: string,
): Promise<Error | undefined> {
  const { resource } = plan;
  const lookup = currentLookup(deps.api, resource, plan.scope, judged, BULK_RETRY);
  const schema = itemSchema(resource, plan.mode);
  const options = { idField: resource.idField, schema, lookup, signal: deps.signal, shown: SHOWN_PROBLEMS, settled };
  const { count, first, unread } = await stateProblems(rows, options);
  if (unread) return unread;
  if (!count) return undefined;
  const located = first.map((p) => ({ ...p, where: `${p.unit} ${p.line} (${resource.noun} ${p.id})` }));
  refuseInvalid(located, count, `${count} of ${of} are invalid against the current ${resource.noun}s`);
}

/** What the validation pass found in the whole input (the spool holds only this run's shard of it). */
interface Validated {
  /** The first invalid rows, to list. */
  problems: LocatedProblem[];
  invalid: number;
  total: number;
  /** Valid patch rows of this shard that can be judged only against the current state (state-check.ts). */
  judged: number;
}

/**
 * On this thread alone. A CSV cut at record boundaries and validated on worker threads as
 * well took longer at 100,000 rows on two cores (1.12 s, not 0.81 s) and ~100 MB more: a
 * worker's code starts cold, and its first 50,000 rows cost it as much as the whole input here.
 */
async function validationPass(plan: BulkPlan, deps: BulkDeps, spool: Spool): Promise<Validated> {
  const { resource, mode } = plan;
  const schema = itemSchema(resource, mode);
  const problems: LocatedProblem[] = [];
  const needsCampaign = resource.parent === 'campaign';
  const occurrence = occurrenceCounter();
  const { shard } = plan;
  let total = 0;
  let invalid = 0;
  let judged = 0;
  // Not async: a promise (to wait for) only when the spool's file asks for it.
  const add = (line: number, mapped: MappedRow, unit: 'line' | 'item' = 'line', expect?: Expectation, batch?: PlanBatch): Promise<void> | undefined => {
    total++;
    let result = mapped;
    if (result.ok && needsCampaign) {
      const campaignId = result.campaignId ?? plan.scope.campaign;
      result = campaignId
        ? { ...result, campaignId }
        : { ok: false, problem: { field: 'campaign_id', message: 'campaign_id is required (a column, or --campaign)' } };
    }
    if (result.ok) {
      const row = {
        line,
        ...(unit === 'item' ? { unit } : {}),
        item: result.item,
        campaignId: result.campaignId,
        ...(result.partial ? { partial: result.partial } : {}),
        ...(expect ? { expect } : {}),
        ...(batch ? { batch } : {}),
      };
      const base = identityBase(row, mode, resource.idField);
      // A plan's shards split it by request: each request is sent whole, under its key, by one shard.
      if (!inShard(batch ? batchIdentity(batch) : base, shard)) return undefined;
      const n = occurrence(base);
      if (mode === 'patch' && judgedAgainstCurrent(row)) judged++;
      return spool.add(n > 1 ? { ...row, n } : row);
    }
    invalid++;
    if (problems.length < SHOWN_PROBLEMS) problems.push({ where: `${unit} ${line}`, ...result.problem });
    return inShard(batch ? batchIdentity(batch) : lineIdentity(line), shard)
      ? spool.add({ line, ...(unit === 'item' ? { unit } : {}), problem: result.problem, ...(batch ? { batch } : {}) })
      : undefined;
  };
  const columns = csvResource(resource);
  if ('csv' in plan.source && columns) {
    const { delimiter, decimalComma } = plan.source.dialect ?? {};
    const rows = csvRows(
      openInput(plan.source.csv, deps.stdin, '--from-csv'),
      (header) => {
        const unknown = unknownColumns(columns, header);
        if (unknown.length)
          throw new UsageError(
            `--from-csv: unknown column${unknown.length > 1 ? 's' : ''} ${unknown.map(shown).join(', ')} (${otherSeparator(header, delimiter) ?? 'see platform help csv for the columns'})`,
          );
      },
      { delimiter },
    );
    for await (const chunk of rows) {
      for (const row of chunk) {
        const wait = add(
          row.line,
          row.fieldCountProblem ? { ok: false, problem: { field: 'row', message: row.fieldCountProblem } } : mapRow(columns, mode, row.cells, { decimalComma }),
        );
        if (wait) await wait;
      }
    }
  } else if ('json' in plan.source) {
    for await (const row of jsonRows(openInput(plan.source.json, deps.stdin, '--from-json'), resource.wrapper)) {
      await add(row.line, columns ? validateItem(columns, mode, row.value) : schemaOnly(schema, row.value), row.unit);
    }
  } else if ('planned' in plan.source) {
    for await (const row of plan.source.planned) {
      const mapped: MappedRow = row.problem
        ? { ok: false, problem: row.problem }
        : columns
          ? validateItem(columns, mode, row.request, row.campaignId)
          : schemaOnly(schema, row.request);
      await add(row.line, mapped, 'line', row.expect, row.batch);
    }
  } else if ('row' in plan.source && columns) {
    // Flags go through the CSV mapping; a problem is a usage error naming the flag.
    const mapped = mapRow(columns, mode, plan.source.row());
    if (!mapped.ok) throw new UsageError(plan.source.problem(mapped.problem.field, mapped.problem.message));
    await add(1, mapped);
  }
  await spool.close();
  if (total === 0) throw new UsageError('the input has no rows');
  return { problems, invalid, total, judged };
}

/** What a plan's row is sharded by: its request. */
function batchIdentity(batch: PlanBatch): string {
  return `batch:${batch.key}`;
}

function schemaOnly(schema: z.ZodType, value: unknown): MappedRow {
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, item: result.data as Record<string, unknown> };
  return { ok: false, problem: { field: 'item', message: describeZodError(result.error).replace(/^item: /, '') } };
}
