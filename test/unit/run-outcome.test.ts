// How a write run ends (bulk/outcome.ts), from its outcome alone, without HTTP: which end it
// came to, the error that end is (its exit code, its one line), and the journal a single item
// keeps.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuthError, exitCodeFor } from '../../src/base/errors.js';
import { Journal } from '../../src/bulk/journal/journal.js';
import { conflictsLine, endError, runEnd, settleSingleJournal, summarized, type RunFacts } from '../../src/bulk/outcome.js';
import type { BulkOutcome, Tally } from '../../src/bulk/pipeline.js';
import type { ResultRow } from '../../src/bulk/results.js';
import { tempDir } from '../helpers/temp.js';

const tally = (counts: Partial<Tally>): Tally => ({ ok: 0, unchanged: 0, failed: 0, invalid: 0, skipped: 0, ...counts });

function outcome(rest: Partial<BulkOutcome> = {}): BulkOutcome {
  const counts = rest.tally ?? tally({ ok: 2 });
  const rows = Object.values(counts).reduce((sum, n) => sum + n, 0);
  return { tally: counts, rows, appliedEarlier: 0, dryRun: false, interrupted: false, journal: '/runs/r-12345678.ndjson', ...rest };
}

const failure: ResultRow = { line: 2, id: 'c1', result: 'failed', error_code: 'NotFound', error_message: 'no campaign c1' };

/** The command's words: the resume command and flags, as write.ts gives them. */
const words = {
  resume: (journal: string | undefined) => `\`platform ads campaigns patch --from-csv in.csv${journal ? ` --resume ${journal}` : ''}\``,
  inFlags: (message: string) => message.replace(/^currency: /, '--currency '),
};

/** The end, and its error as the CLI reports it: exit code and line. */
function ended(o: BulkOutcome, facts: RunFacts = {}) {
  const end = runEnd(o, facts);
  const error = endError(end, words);
  return { end: end.end, exit: error ? exitCodeFor(error) : 0, message: error?.message };
}

describe('how a write run ends', () => {
  it('every row applied, unchanged or applied earlier: exit 0', () => {
    expect(ended(outcome())).toEqual({ end: 'done', exit: 0, message: undefined });
    expect(ended(outcome({ tally: tally({ ok: 1, unchanged: 1 }) })).exit).toBe(0);
    // A resumed run's rows applied by the earlier run come as skipped (AlreadyApplied).
    expect(ended(outcome({ tally: tally({ ok: 1, skipped: 3 }), appliedEarlier: 3 })).exit).toBe(0);
  });

  it('a row that did not succeed: exit 1; the line is the one row’s error, or empty after a summary', () => {
    const one = outcome({ tally: tally({ failed: 1 }), lastFailure: failure });
    expect(ended(one)).toEqual({ end: 'failed', exit: 1, message: 'NotFound: no campaign c1' });
    const many = outcome({ tally: tally({ ok: 3, failed: 1 }), lastFailure: failure });
    expect(ended(many)).toEqual({ end: 'failed', exit: 1, message: '' });
    // Skipped rows (not sent) are failures too.
    expect(ended(outcome({ tally: tally({ ok: 1, skipped: 1 }) })).exit).toBe(1);
  });

  it('a single request sent and never answered says how to send it again under the same key', () => {
    const one = outcome({ tally: tally({ failed: 1 }), lastFailure: failure });
    expect(ended(one, { unanswered: true }).message).toBe(
      'NotFound: no campaign c1; it may have been applied: run `platform ads campaigns patch --from-csv in.csv --resume /runs/r-12345678.ndjson` to send it again under the same idempotency key',
    );
  });

  it('the one item invalid against its resource: exit 2 in the words of its flags, before anything else', () => {
    const invalid: ResultRow = { line: 1, id: 'c1', result: 'invalid', error_code: 'Invalid', error_message: 'currency: EUR does not match USD' };
    const o = outcome({ tally: tally({ invalid: 1 }), interrupted: true });
    expect(ended(o, { invalid })).toEqual({ end: 'invalid', exit: 2, message: '--currency EUR does not match USD' });
  });

  it('stopped with rows unsent: exit 130, naming what stopped it and the command that sends the rest', () => {
    const o = outcome({ tally: tally({ ok: 1, skipped: 1 }), interrupted: true });
    expect(ended(o)).toEqual({
      end: 'interrupted',
      exit: 130,
      message: 'interrupted: to send the rest, run `platform ads campaigns patch --from-csv in.csv --resume /runs/r-12345678.ndjson`',
    });
    expect(ended(o, { stdoutClosed: true }).message).toMatch(/^stdout was closed \(what read it stopped reading\): to send the rest, run /);
  });

  it('credentials refused: the AuthError itself (exit 4), ahead of a journal failure or a stop', () => {
    const refused = new AuthError('token refused');
    const o = outcome({ refused, interrupted: true, journalFailure: { path: '/runs/j', error: new Error('EIO') } });
    expect(endError(runEnd(o), words)).toBe(refused);
    expect(ended(o).exit).toBe(4);
  });

  it('a journal that could not be written: exit 1, the fix for a full disk or a folder, then the resume', () => {
    const full = outcome({ interrupted: true, journalFailure: { path: '/runs/j', error: new Error('ENOSPC: no space left on device, write') } });
    expect(ended(full)).toEqual({
      end: 'journal-failed',
      exit: 1,
      message:
        'the journal /runs/j could not be written (ENOSPC: no space left on device, write), so the rows from there on were not sent: ' +
        'free space on its disk, then run `platform ads campaigns patch --from-csv in.csv --resume /runs/r-12345678.ndjson`',
    });
    // Never created: the same command without --resume sends the rows.
    const denied = outcome({ journal: undefined, journalFailure: { path: '/runs/j', error: new Error('EACCES: permission denied') } });
    expect(ended(denied).message).toMatch(/: make its folder writable, then run `platform ads campaigns patch --from-csv in.csv`$/);
  });

  it('a dry run: exit 1 foretold for rows the run would not apply, 130 when stopped (no plan written)', () => {
    const dry = (preview: BulkOutcome['preview'], rows: number, interrupted = false) =>
      outcome({ dryRun: true, preview, rows, interrupted, journal: undefined, tally: tally({}) });
    expect(ended(dry({ would_update: 2 }, 2))).toEqual({ end: 'done', exit: 0, message: undefined });
    expect(ended(dry({ would_update: 134, invalid: 66 }, 200))).toEqual({
      end: 'would-fail',
      exit: 1,
      message: '66 of 200 rows would not be applied (66 invalid)',
    });
    expect(ended(dry({ not_found: 1 }, 1)).message).toBe('the row would not be applied (not found)');
    expect(ended(dry({ would_update: 1 }, 2, true), { plan: 'p.ndjson' })).toEqual({
      end: 'dry-run-stopped',
      exit: 130,
      message: 'interrupted: the dry run stopped before the rows after the last one shown (so no plan was written to p.ndjson)',
    });
    expect(ended(dry({}, 2, true)).message).toBe('interrupted: the dry run stopped before the rows after the last one shown');
  });

  it('the summary and the conflicts line come with every end but an invalid item and a stopped dry run', () => {
    expect(summarized(runEnd(outcome()))).toBe(true);
    expect(summarized(runEnd(outcome({ interrupted: true })))).toBe(true);
    expect(summarized(runEnd(outcome({ dryRun: true, interrupted: true, preview: {} })))).toBe(false);
    expect(summarized({ end: 'invalid', row: failure })).toBe(false);
    expect(conflictsLine(outcome())).toBeUndefined();
    expect(conflictsLine(outcome({ tally: tally({ ok: 197, failed: 3, conflict: 3 }), rows: 200 }))).toBe(
      '3 of 200 rows not sent: changed since (result conflict, both values in its message); --force sends them anyway',
    );
  });
});

describe("a single item's journal", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A journal with one batch sent, answered or not. */
  async function journal(answered: boolean): Promise<string> {
    const dir = tempDir('platform-outcome-');
    dirs.push(dir);
    const file = path.join(dir, 'run.ndjson');
    const j = Journal.open(file, { resource: 'campaigns', mode: 'patch' }, new Date(0));
    await j.sent({ key: 'k1', rows: ['c1'], hashes: ['h'], lines: [1] });
    if (answered) j.done({ key: 'k1', results: [{ ...failure, key: 'c1', hash: 'h' }] });
    j.close();
    return file;
  }

  it('goes when the run changed nothing and left nothing unknown, unless the user named it', async () => {
    const file = await journal(true);
    expect(await settleSingleJournal(outcome({ tally: tally({ failed: 1 }), journal: file }), true)).toBe(false);
    expect(fs.existsSync(file)).toBe(true);
    expect(await settleSingleJournal(outcome({ tally: tally({ failed: 1 }), journal: file }), false)).toBe(false);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('stays when it changed something (its history), was interrupted, or holds a request never answered', async () => {
    const changed = await journal(true);
    await settleSingleJournal(outcome({ tally: tally({ ok: 1 }), journal: changed }), false);
    expect(fs.existsSync(changed)).toBe(true);
    const stopped = await journal(true);
    await settleSingleJournal(outcome({ tally: tally({ skipped: 1 }), interrupted: true, journal: stopped }), false);
    expect(fs.existsSync(stopped)).toBe(true);
    const unanswered = await journal(false);
    expect(await settleSingleJournal(outcome({ tally: tally({ failed: 1 }), journal: unanswered }), false)).toBe(true);
    expect(fs.existsSync(unanswered)).toBe(true);
  });
});
