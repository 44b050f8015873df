// The send pass: validated rows -> batches -> concurrent requests -> exactly one result per
// row, yielded in input order. A batch keeps one idempotency key across the HTTP core's
// retries, so a batch that succeeded is never applied again; items that failed inside a
// batch are final unless their code is transient, and then they are resent (new batch).
// A plan's rows (plan.ts) come in the requests the plan made, each under the plan's key, and
// its items that failed transiently are resent under keys made from it (planKey): the same
// rows under the same keys at every apply, wherever it runs, so a server that keeps keys
// answers a repeat as it did the first time. An answer the server replays (Idempotent-Replayed)
// is not an attempt: an apply walks through the answers an earlier one got, then goes on.
import { createHash, randomUUID } from 'node:crypto';
import type { BatchResult } from '../schemas/ads.js';
import { TRANSIENT_ITEM_CODES } from '../schemas/ads.js';
import type { ResultRow } from './results.js';
import { ApiError, AuthError, errorLine } from '../base/errors.js';
import { describeProblem, type RowProblem } from './input/row-mapping.js';
import type { RowIdentity } from './row-identity.js';
import type { Journal, JournalResult, JournalState } from './journal/journal.js';
import type { MergedRow } from './changes/merge.js';
import type { Resend } from './journal/resume-check.js';
import type { PlanBatch } from './spool.js';
import { rowChange } from './changes/row-change.js';

export interface Batch {
  items: Array<Record<string, unknown>>;
  campaignId?: string;
  idempotencyKey: string;
  /** Called when the answer is one the server replayed for this key (sent before, answered then). */
  replayed?: () => void;
}

export interface RunnerOptions {
  /** The rows in input order, in chunks of any size. */
  rows: AsyncIterable<MergedRow[]>;
  batchSize: number;
  concurrency: number;
  send: (batch: Batch) => Promise<BatchResult[]>;
  /** The id field of the resource, to report the id of a failed patch item. */
  idField: string;
  /** Rows (by key) that succeeded in an earlier run (--resume of a results file), with their ids. */
  alreadyDone?: ReadonlyMap<string, string>;
  /** What an earlier run's journal says (--resume of a journal): each row's last result, by key, and the keys it sent. */
  resumeFrom?: Pick<JournalState, 'done'> & Partial<Pick<JournalState, 'keys'>>;
  /** Batches that were in flight, to resend with their key once all their rows have come (resume-check.ts). */
  resend?: readonly Resend[];
  /** Records each batch before it is sent and its results when they come; once it cannot be written, nothing more is sent. */
  journal?: Pick<Journal, 'sent' | 'done' | 'failure'>;
  /** Aborts on Ctrl-C: no new batch is sent; batches in flight finish. */
  signal: AbortSignal;
  onResult?: (row: ResultRow) => void;
  /** Credentials were refused for a whole batch: no further batch is sent (the caller ends with it). */
  onRefused?: (error: AuthError) => void;
  /** Waits before retry round `round` (1, 2, ...) of items that failed transiently: back-off, as for a failed request. */
  pause?: (round: number) => Promise<void>;
  /**
   * A plan's requests: how many rows each key (PlanBatch) carries. A row with a `batch` is sent
   * in that request once all of the key's rows have come (whatever became of the others:
   * unchanged, in conflict, settled earlier), under planKey.
   */
  planBatches?: ReadonlyMap<string, number>;
}

const MAX_ITEM_RETRIES = 3;
/** Answers in a row for one batch, replayed ones included: a bound on a server that would replay for ever. */
const MAX_ROUNDS = 64;
/** Batches of different campaigns kept open at once before the oldest is sent part-full (a plan's writer keeps to it too). */
export const MAX_OPEN_BATCHES = 32;

/**
 * The Idempotency-Key of round `round` of a plan's request `key` of `size` rows, carrying the
 * rows at places `at` (in order): the plan's key for its first round with all of its rows;
 * else `KEY~ROUND~<12 hex>`, made from them. Round 0 is the first send; round r + 1 carries
 * the rows of round r that failed transiently. The same rows in the same round go under the
 * same key at every apply, on any machine: one that resumes a run starts after the last round
 * its journal sent (planRounds), where an apply without the journal gets, round by round, the
 * answers the server kept.
 */
export function planKey(key: string, size: number, round: number, at: readonly number[]): string {
  if (round === 0 && at.length === size && at.every((place, i) => place === i)) return key;
  const made = createHash('sha256')
    .update(`${key}\n${round}\n${at.join(',')}`)
    .digest('hex');
  return `${key}~${round}~${made.slice(0, 12)}`;
}

/** The plan's key and round of a key planKey made (round 0: the plan's key itself). */
export function planKeyRound(key: string): { key: string; round: number } {
  const [base, round] = key.split('~');
  return { key: base!, round: round === undefined ? 0 : Number(round) || 0 };
}

/** The round each plan's request goes on from: one after the last its journal sent (none: 0). */
function planRounds(sent: Iterable<string> | undefined): Map<string, number> {
  const rounds = new Map<string, number>();
  for (const sentKey of sent ?? []) {
    const { key, round } = planKeyRound(sentKey);
    rounds.set(key, Math.max(rounds.get(key) ?? 0, round + 1));
  }
  return rounds;
}

/** A plan's request as it is sent: its key, its size and the round this send is. */
interface PlanSend {
  key: string;
  size: number;
  round: number;
}

interface Pending {
  seq: number;
  line: number;
  key: string;
  hash: string;
  item: Record<string, unknown>;
  /** The resource as read before the write (a patch; null: not found): its journal keeps what the row replaces. */
  current?: Record<string, unknown> | null;
  /** A plan's row: its request (its place in it) and the campaign of that request. */
  batch?: PlanBatch;
  campaignId?: string;
}

export async function* runBulk(options: RunnerOptions): AsyncGenerator<ResultRow> {
  const done = new Map<number, ResultRow>();
  let nextToYield = 0;
  let seq = 0;
  let inFlight = 0;
  let wake: (() => void) | undefined;
  const notify = () => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const settle = (seqNo: number, row: ResultRow) => {
    done.set(seqNo, row);
    options.onResult?.(row);
    notify();
  };
  const open = new Map<string, Pending[]>();
  /** A plan's requests being gathered, by key: the rows to send, their places, and how many of its rows have come. */
  const planned = new Map<string, { rows: Pending[]; seen: number }>();

  const dispatch = (key: string) => {
    const rows = open.get(key);
    open.delete(key);
    if (rows?.length) send(rows, key === '' ? undefined : key);
  };

  let refused: AuthError | undefined;
  const unjournaled = () => options.journal?.failure;
  const stopped = () => options.signal.aborted || refused !== undefined || unjournaled() !== undefined;
  const notSent = (row: Pending): ResultRow => {
    const id = idOf(row.item, options.idField);
    if (refused) return { line: row.line, id, result: 'skipped', error_code: 'NotSent', error_message: `not sent: ${refused.message}` };
    const failure = unjournaled();
    return failure ? journalNotSent(row.line, id, failure) : interrupted(row.line, id);
  };
  const send = (rows: Pending[], campaignId: string | undefined, idempotencyKey?: string, plan?: PlanSend) => {
    if (stopped()) {
      for (const row of rows) settle(row.seq, notSent(row));
      return;
    }
    inFlight++;
    void sendWithItemRetries(options, rows, campaignId, idempotencyKey, plan)
      .then(
        (results) => results.forEach((result, i) => settle(rows[i]!.seq, result)),
        (error: unknown) => {
          if (!(error instanceof AuthError)) throw error;
          refused ??= error;
          options.onRefused?.(error);
          const { code, message } = describeFailure(error);
          for (const row of rows)
            settle(row.seq, { line: row.line, id: idOf(row.item, options.idField), result: 'failed', error_code: code, error_message: message });
        },
      )
      .finally(() => {
        inFlight--;
        notify();
      });
  };

  function* drainReady(): Generator<ResultRow> {
    while (done.has(nextToYield)) {
      const row = done.get(nextToYield)!;
      done.delete(nextToYield);
      nextToYield++;
      yield row;
    }
  }

  // A resumed journal: batches that were in flight are rebuilt from their rows and resent
  // with their original key (the same items in the same order, so the server replays rather than applies).
  const resendOf = new Map<string, Resend>();
  for (const batch of options.resend ?? []) for (const key of batch.rows) resendOf.set(key, batch);
  const rebuilding = new Map<string, Pending[]>();
  const sendRebuilt = (batch: Resend, rows: Pending[]) => {
    rebuilding.delete(batch.key);
    const order = new Map(batch.rows.map((key, i) => [key, i]));
    // A plan's request goes on with its rounds after this one (planKey).
    const plan = rows[0]?.batch && planKeyRound(batch.key);
    const size = plan && options.planBatches?.get(plan.key);
    send(
      rows.sort((a, b) => order.get(a.key)! - order.get(b.key)!),
      batch.campaignId,
      batch.key,
      plan && size !== undefined ? { ...plan, size } : undefined,
    );
  };
  /** Why the current state could not be read, once it could not: the rows after it are not sent. */
  let unread: Error | undefined;

  /** The round each plan's request starts at: after the rounds a resumed journal sent. */
  const rounds = planRounds(options.resumeFrom?.keys);
  /** A plan's request: sent once every row of it has come (its own rows, whatever became of the others). */
  const sendPlanned = (key: string, gathered: { rows: Pending[] }) => {
    planned.delete(key);
    if (!gathered.rows.length) return;
    send(gathered.rows, gathered.rows[0]!.campaignId, undefined, { key, size: options.planBatches?.get(key) ?? 0, round: rounds.get(key) ?? 0 });
  };
  const planSeen = (batch: PlanBatch, pending?: Pending) => {
    const gathered = planned.get(batch.key) ?? { rows: [], seen: 0 };
    planned.set(batch.key, gathered);
    gathered.seen++;
    if (pending) gathered.rows.push(pending);
    if (gathered.seen >= (options.planBatches?.get(batch.key) ?? 0)) sendPlanned(batch.key, gathered);
  };

  for await (const chunk of options.rows)
    for (const row of chunk) {
      const seqNo = seq++;
      const batch = options.planBatches && row.batch;
      // A row invalid in itself has no identity; one found at fault against the current state
      // has, and is reported from an earlier run first: it was applied before its resource changed.
      if ('problem' in row && !('key' in row)) {
        settle(seqNo, invalidResult(row.line, '', row.problem));
        if (batch) planSeen(batch);
        continue;
      }
      const earlier = earlierRunResult(row, options.alreadyDone, options.resumeFrom);
      const resent = resendOf.get(row.key);
      /** This row, to send in the plan's request (a plan's row that is sent). */
      let toPlan: Pending | undefined;
      if (earlier !== undefined) {
        settle(seqNo, earlier);
      } else if ('problem' in row) {
        settle(seqNo, invalidResult(row.line, row.id, row.problem));
      } else if ('unread' in row) {
        unread ??= row.unread;
        settle(seqNo, unreadResult(row.line, idOf(row.item, options.idField), row.unread));
      } else if ('conflict' in row) {
        settle(seqNo, { line: row.line, id: row.id, result: 'conflict', error_code: 'Conflict', error_message: row.conflict });
      } else if ('unchanged' in row) {
        settle(seqNo, { line: row.line, id: row.id, result: 'unchanged', error_code: '', error_message: 'would change nothing: not sent' });
      } else if (resent !== undefined) {
        const rows = rebuilding.get(resent.key) ?? [];
        rebuilding.set(resent.key, rows);
        rows.push({ seq: seqNo, line: row.line, key: row.key, hash: row.hash, item: row.item, current: row.current, ...(batch ? { batch } : {}) });
        if (rows.length === resent.rows.length) sendRebuilt(resent, rows);
      } else if (stopped()) {
        settle(seqNo, notSent({ seq: seqNo, line: row.line, key: row.key, hash: row.hash, item: row.item }));
      } else if (batch) {
        toPlan = { seq: seqNo, line: row.line, key: row.key, hash: row.hash, item: row.item, current: row.current, batch, campaignId: row.campaignId };
      } else {
        const key = row.campaignId ?? '';
        const rows = open.get(key) ?? [];
        if (!open.has(key) && open.size >= MAX_OPEN_BATCHES) dispatch(open.keys().next().value!);
        open.set(key, rows);
        rows.push({ seq: seqNo, line: row.line, key: row.key, hash: row.hash, item: row.item, current: row.current });
        if (rows.length >= options.batchSize) dispatch(key);
      }
      if (batch) planSeen(batch, toPlan);
      // (a generator per row only when a result is ready: most rows wait for their batch)
      if (done.has(nextToYield)) yield* drainReady();
      // Back-pressure: at most `concurrency` batches in flight.
      while (inFlight >= options.concurrency) {
        await new Promise<void>((resolve) => (wake = resolve));
        yield* drainReady();
      }
    }
  for (const key of [...open.keys()]) dispatch(key);
  // (a plan's request with rows that never came: this run had only some of them)
  for (const [key, gathered] of [...planned]) sendPlanned(key, gathered);
  // An in-flight batch is resent only whole (resume-check.ts): one whose other rows went
  // unread (or were judged again) waits for a run that can read them (its key must carry the same items).
  for (const rows of rebuilding.values())
    for (const row of rows)
      settle(
        row.seq,
        unread
          ? unreadResult(row.line, idOf(row.item, options.idField), unread)
          : {
              line: row.line,
              id: idOf(row.item, options.idField),
              result: 'skipped',
              error_code: 'NotSent',
              error_message: 'not sent: its batch, in flight when an earlier run stopped, can be resent only whole',
            },
      );
  while (nextToYield < seq) {
    if (!done.has(nextToYield)) await new Promise<void>((resolve) => (wake = resolve));
    yield* drainReady();
  }
}

/** A journaled result if it is final: a transient item failure is not (a resumed run sends it again). */
function finalResult(recorded: JournalResult | undefined): JournalResult | undefined {
  return recorded?.result === 'failed' && TRANSIENT_ITEM_CODES.has(recorded.error_code) ? undefined : recorded;
}

/**
 * The row's last result in a resumed run's journal, if it was for this very content (an edited
 * row that was not applied goes again). A transient item failure was not applied ("retry it"):
 * a resumed run sends it again (a new batch, a new key) rather than repeat it as final.
 */
function earlierResult(row: RowIdentity, resumeFrom: Pick<JournalState, 'done'> | undefined): JournalResult | undefined {
  const journaled = resumeFrom?.done.get(row.key);
  return journaled?.hash === row.hash ? finalResult(journaled) : undefined;
}

/**
 * The result a resumed run reports for this row from the earlier run (its results, or its
 * journal) instead of sending it; undefined when the row is this run's to send.
 */
export function earlierRunResult(
  row: RowIdentity & { line: number },
  alreadyDone: ReadonlyMap<string, string> | undefined,
  resumeFrom: Pick<JournalState, 'done'> | undefined,
): ResultRow | undefined {
  const applied = (id: string): ResultRow => ({
    line: row.line,
    id,
    result: 'skipped',
    error_code: 'AlreadyApplied',
    error_message: 'succeeded in an earlier run (--resume)',
  });
  const previous = alreadyDone?.get(row.key);
  if (previous !== undefined) return applied(previous);
  const recorded = earlierResult(row, resumeFrom);
  if (recorded === undefined) return undefined;
  const { id, result, error_code: code, error_message: message } = recorded;
  return result === 'ok' ? applied(id) : { line: row.line, id, result, error_code: code, error_message: message };
}

function invalidResult(line: number, id: string, problem: RowProblem): ResultRow {
  return { line, id, result: 'invalid', error_code: 'InvalidRow', error_message: describeProblem(problem) };
}

function idOf(item: Record<string, unknown>, idField: string): string {
  return typeof item[idField] === 'string' ? item[idField] : '';
}

function unreadResult(line: number, id: string, error: Error): ResultRow {
  return { line, id, result: 'skipped', error_code: 'NotSent', error_message: `not sent: the current state could not be read (${errorLine(error)})` };
}

function journalNotSent(line: number, id: string, failure: Error): ResultRow {
  return { line, id, result: 'skipped', error_code: 'NotSent', error_message: `not sent: the journal could not be written (${errorLine(failure)})` };
}

function interrupted(line: number, id: string): ResultRow {
  return { line, id, result: 'skipped', error_code: 'Interrupted', error_message: 'not sent: interrupted before this row was sent' };
}

/**
 * Sends a batch; resends items whose failure is transient (a fresh batch, a fresh key; a
 * plan's: planKey, round after round). The journal hears of each request before it goes and
 * of its results when they come; a request that failed whole (its outcome unknown) stays in
 * flight there, to be resent with its key. An answer the server replayed is not an attempt.
 */
async function sendWithItemRetries(
  options: RunnerOptions,
  rows: Pending[],
  campaignId: string | undefined,
  firstKey?: string,
  plan?: PlanSend,
): Promise<ResultRow[]> {
  const results = new Array<ResultRow>(rows.length);
  let todo = rows.map((_, i) => i);
  /** Answers that were not replays. */
  let attempts = 0;
  let replayed = false;
  for (let step = 0; todo.length && step < MAX_ROUNDS; step++) {
    // (a replayed answer came from the server's store, not from a failure now: no back-off)
    if (step > 0 && !replayed) await options.pause?.(attempts);
    const items = todo.map((i) => rows[i]!.item);
    const idempotencyKey =
      step === 0 && firstKey !== undefined
        ? firstKey
        : plan
          ? planKey(
              plan.key,
              plan.size,
              plan.round + step,
              todo.map((i) => rows[i]!.batch!.at),
            )
          : randomUUID();
    try {
      await options.journal?.sent({
        key: idempotencyKey,
        rows: todo.map((i) => rows[i]!.key),
        hashes: todo.map((i) => rows[i]!.hash),
        lines: todo.map((i) => rows[i]!.line),
        ...(campaignId ? { campaignId } : {}),
        changes: todo.map((i) => rowChange(rows[i]!.item, rows[i]!.current, options.idField)),
      });
    } catch (error) {
      // Not on disk, so not sent: a request the journal does not know of could be applied twice.
      for (const i of todo) results[i] = journalNotSent(rows[i]!.line, idOf(rows[i]!.item, options.idField), error as Error);
      return results;
    }
    let answers: BatchResult[];
    replayed = false;
    try {
      answers = await options.send({ items, campaignId, idempotencyKey, replayed: () => (replayed = true) });
    } catch (error) {
      // Refused credentials end the run (the caller exits 4); nothing more is sent.
      if (error instanceof AuthError) throw error;
      // The whole request failed after the HTTP core's retries: each row says why.
      const { code, message } = describeFailure(error);
      for (const i of todo) {
        results[i] = { line: rows[i]!.line, id: idOf(rows[i]!.item, options.idField), result: 'failed', error_code: code, error_message: message };
      }
      // A refusal (4xx, 429 aside) is an answer: nothing of the request was applied, and the journal says so. After
      // a 5xx or no answer at all its outcome stays unknown (a resume sends it again under its key).
      if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 429) {
        options.journal?.done({ key: idempotencyKey, results: todo.map((i) => journaled(results[i]!, rows[i]!)) });
      }
      return results;
    }
    if (!replayed) attempts++;
    const retry = (replayed || attempts <= MAX_ITEM_RETRIES) && step + 1 < MAX_ROUNDS;
    const again: number[] = [];
    todo.forEach((rowIndex, k) => {
      const answer = answers[k];
      const row = rows[rowIndex]!;
      if (answer && 'success' in answer) {
        results[rowIndex] = { line: row.line, id: answer.success.id, result: 'ok', error_code: '', error_message: '' };
      } else if (answer && TRANSIENT_ITEM_CODES.has(answer.failure.error_code) && retry) {
        again.push(rowIndex);
      } else {
        results[rowIndex] = {
          line: row.line,
          id: idOf(row.item, options.idField),
          result: 'failed',
          error_code: answer?.failure.error_code ?? 'MissingResult',
          error_message: answer?.failure.error_message ?? 'the API returned no result for this item',
        };
      }
    });
    // This request is answered: its final rows are recorded now (the retried ones go in the next).
    // A row that succeeded under its own key is named by its place in the request (DoneRecord).
    const ok: number[] = [];
    const whole: JournalResult[] = [];
    todo.forEach((i, at) => {
      const result = results[i];
      if (!result) return; // (sent again)
      if (result.result === 'ok' && result.id === rows[i]!.key) ok.push(at);
      else whole.push(journaled(result, rows[i]!));
    });
    options.journal?.done({ key: idempotencyKey, results: whole, ...(ok.length ? { ok } : {}) });
    todo = again;
  }
  return results;
}

/** A result as journaled, with its row's identity (built field by field: a spread of each result costs more). */
function journaled(result: ResultRow, row: Pending): JournalResult {
  const { line, id, result: outcome, error_code: code, error_message: message } = result;
  return { line, id, result: outcome, error_code: code, error_message: message, key: row.key, hash: row.hash };
}

/** The code and message of a request that failed whole: the API's own, else the error's kind. */
function describeFailure(error: unknown): { code: string; message: string } {
  if (error instanceof ApiError) return { code: error.code, message: error.detail };
  if (error instanceof AuthError && error.answer) return { code: error.answer.code, message: error.answer.detail };
  return { code: error instanceof Error ? error.name : 'Error', message: errorLine(error) };
}
