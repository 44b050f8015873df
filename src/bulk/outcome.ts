// How a write run ends, from its outcome (pipeline.ts): which end it came to (`runEnd`: done,
// refused, stopped, failed ...), the typed error that end is and so the exit code (`endError`),
// and the journal a single item keeps. A library: it returns lines and errors, it never prints.
// The command line that resumes a run, and a problem in the words of the flags that gave the
// row, are the caller's (`EndWords`): they name commands and flags.
import fs from 'node:fs';
import { CommandError, errorLine, InterruptedError, PartialFailureError, UsageError, type AuthError } from '../base/errors.js';
import { readJournal } from './journal/journal.js';
import { failedRows, tallyTotal, type BulkOutcome } from './pipeline.js';
import { wouldFail } from './plan/dry-run.js';
import type { ResultRow } from './results.js';

/** How a run ended, and what its error needs to say so. */
export type RunEnd =
  /** Every row applied, unchanged or applied earlier (a dry run: every row would be). Exit 0. */
  | { end: 'done' }
  /** The one item from flags is invalid against its resource as it is: nothing was written. Exit 2. */
  | { end: 'invalid'; row: ResultRow }
  /** A dry run stopped part-way: no plan was written to `plan`. Exit 130. */
  | { end: 'dry-run-stopped'; plan?: string }
  /** A dry run whose run would not apply some rows (dry-run.ts, wouldFail): why. Exit 1. */
  | { end: 'would-fail'; why: string }
  /** Credentials refused for a whole batch: the run stopped there. Exit 4. */
  | { end: 'refused'; error: AuthError }
  /** The journal `path` could not be written: the rows from there on were not sent; `journal` resumes them. Exit 1. */
  | { end: 'journal-failed'; path: string; error: Error; journal?: string }
  /** Stopped with rows unsent, by a signal or by its reader closing stdout; `journal` resumes them. Exit 130. */
  | { end: 'interrupted'; by: 'signal' | 'stdout'; journal?: string }
  /**
   * Rows did not succeed, now or in an earlier run (--resume). `row`: the run's one row, whose
   * error is the command's; `unanswered`: its request was sent and never answered.
   */
  | { end: 'failed'; row?: ResultRow; unanswered: boolean; journal?: string };

/** What the caller knows of a run besides its outcome. */
export interface RunFacts {
  /** The one item from flags, found invalid against its resource as it is (after the read, before any write). */
  invalid?: ResultRow;
  /** The one item's request was sent and never answered (settleSingleJournal). */
  unanswered?: boolean;
  /** The run stopped because its stdout was closed (what read it stopped reading), not by a signal. */
  stdoutClosed?: boolean;
  /** The plan file a dry run was writing (--plan). */
  plan?: string;
}

/** The end a run came to: the first of these that holds, in this order. */
export function runEnd(outcome: BulkOutcome, facts: RunFacts = {}): RunEnd {
  if (facts.invalid) return { end: 'invalid', row: facts.invalid };
  const { journal } = outcome;
  if (outcome.dryRun) {
    if (outcome.interrupted) return { end: 'dry-run-stopped', plan: facts.plan };
    // The run's exit code, foretold: a row it would not apply (invalid against the current values, not found, changed since the plan) is 1.
    const why = wouldFail(outcome.preview!, outcome.rows);
    return why ? { end: 'would-fail', why } : { end: 'done' };
  }
  if (outcome.refused) return { end: 'refused', error: outcome.refused };
  // Every row has its result; this says why the rest were not sent.
  if (outcome.journalFailure) return { end: 'journal-failed', ...outcome.journalFailure, journal };
  if (outcome.interrupted) return { end: 'interrupted', by: facts.stdoutClosed ? 'stdout' : 'signal', journal };
  if (failedRows(outcome) === 0) return { end: 'done' };
  // One item: the usual one-line error; many: the summary has said it.
  const row = tallyTotal(outcome.tally) === 1 ? outcome.lastFailure : undefined;
  return { end: 'failed', row, unanswered: Boolean(facts.unanswered), journal };
}

/** Whether the run got as far as its summary (or a dry run's preview): every end but an invalid item and a stopped dry run. */
export function summarized(end: RunEnd): boolean {
  return end.end !== 'invalid' && end.end !== 'dry-run-stopped';
}

/** `3 of 200 rows not sent: changed since ...`: the rows of a plan or undo not sent because their resource changed; none when none was. */
export function conflictsLine(outcome: BulkOutcome): string | undefined {
  const conflicts = outcome.tally.conflict;
  if (!conflicts) return undefined;
  return `${conflicts} of ${outcome.rows} rows not sent: changed since (result conflict, both values in its message); --force sends them anyway`;
}

/** The words of an end's error that are the caller's. */
export interface EndWords {
  /** The command line that resumes the run from `journal`, as the user would type it. */
  resume: (journal: string | undefined) => string;
  /** A problem of the one item (`field: message`) in the words of the flags that gave it. */
  inFlags: (message: string) => string;
}

/** The typed error a run ends with (its exit code: errors.ts, exitCodeFor); undefined when it ends well. */
export function endError(end: RunEnd, words: EndWords): Error | undefined {
  switch (end.end) {
    case 'done':
      return undefined;
    case 'invalid':
      return new UsageError(words.inFlags(end.row.error_message));
    case 'dry-run-stopped': {
      const plan = end.plan === undefined ? '' : ` (so no plan was written to ${end.plan})`;
      return new InterruptedError(`interrupted: the dry run stopped before the rows after the last one shown${plan}`);
    }
    case 'would-fail':
      return new PartialFailureError(end.why);
    case 'refused':
      return end.error;
    case 'journal-failed': {
      const fix = /ENOSPC|EDQUOT/.test(errorLine(end.error)) ? 'free space on its disk' : 'make its folder writable';
      return new CommandError(
        `the journal ${end.path} could not be written (${errorLine(end.error)}), so the rows from there on were not sent: ${fix}, then run ${words.resume(end.journal)}`,
      );
    }
    case 'interrupted': {
      const why = end.by === 'stdout' ? 'stdout was closed (what read it stopped reading)' : 'interrupted';
      return new InterruptedError(`${why}: to send the rest, run ${words.resume(end.journal)}`);
    }
    case 'failed': {
      const retry = end.unanswered ? `; it may have been applied: run ${words.resume(end.journal)} to send it again under the same idempotency key` : '';
      return new PartialFailureError(end.row ? `${end.row.error_code}: ${end.row.error_message}${retry}` : '');
    }
  }
}

/**
 * A single item's journal after its run: its history when it changed something (`runs list`,
 * `runs undo`); otherwise it stays (and is named) only when the run was interrupted or its
 * request's outcome is unknown (sent, never answered). Returns whether it is unknown.
 */
export async function settleSingleJournal(outcome: BulkOutcome, named: boolean): Promise<boolean> {
  const unanswered = !outcome.dryRun && !outcome.interrupted && !outcome.refused && outcome.journal !== undefined && (await inFlight(outcome.journal));
  if (!outcome.interrupted && !unanswered && outcome.tally.ok === 0) removeJournal(outcome.journal, named);
  return unanswered;
}

/** A single item's journal, unless the user named it (`named`: --journal, --resume); a single item that ended with an error sent nothing to resume. */
export function removeJournal(file: string | undefined, named: boolean): void {
  if (file && !named) fs.rmSync(file, { force: true });
}

/** Whether a journal holds a request sent and never answered. */
async function inFlight(file: string): Promise<boolean> {
  try {
    return (await readJournal(file)).inFlight.length > 0;
  } catch {
    return false;
  }
}
