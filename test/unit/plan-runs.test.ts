// Applying a plan again (bulk/runs/plan-runs.ts, earlierApplyOf), from the runs alone: it goes
// on with the run that applied it (same profile and shard), and is refused when that run was
// undone, when --journal names another journal, or when a run of other shards shares its rows.
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/base/errors.js';
import type { RunRecord } from '../../src/bulk/journal/journal.js';
import { earlierApplyOf, goingOnLine, type PlanApply } from '../../src/bulk/runs/plan-runs.js';
import type { RunSummary } from '../../src/bulk/runs/runs.js';
import { parseShard, shardFlag } from '../../src/bulk/shard.js';

function run(name: string, started: string, record: Partial<RunRecord> = {}): RunSummary {
  return {
    run: `2026-11-26-patch-campaigns-${name}`,
    path: `/runs/2026-11-26-patch-campaigns-${name}.ndjson`,
    record: { type: 'run', version: 4, resource: 'campaigns', mode: 'patch', started, plan: 'P', profile: 'default', ...record },
    running: false,
    status: 'done',
  };
}

const apply = (rest: Partial<PlanApply> = {}): PlanApply => ({ file: 'plan.ndjson', plan: 'P', profile: 'default', shard: undefined, ...rest });

/** The error an apply ends with, as `{ name, message }`. */
function refusal(act: () => unknown): { name: string; message: string } | undefined {
  try {
    act();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return { name: (error as Error).name, message: (error as Error).message };
  }
}

describe('an apply of a plan applied before', () => {
  it('goes on with the last run of this plan with this profile and shard; others are not its runs', () => {
    const first = run('aaaaaaaa', '2026-11-26T10:00:00.000Z');
    const last = run('bbbbbbbb', '2026-11-26T11:00:00.000Z');
    const otherPlan = run('cccccccc', '2026-11-26T12:00:00.000Z', { plan: 'Q' });
    const otherProfile = run('dddddddd', '2026-11-26T12:00:00.000Z', { profile: 'eats' });
    const runs = [last, otherPlan, first, otherProfile];
    expect(earlierApplyOf(runs, runs, apply())).toBe(last);
    expect(earlierApplyOf([otherPlan, otherProfile], [], apply())).toBeUndefined();
    expect(goingOnLine('plan.ndjson', last)).toBe(
      'plan.ndjson was applied by run bbbbbbbb (2026-11-26T11:00:00.000Z, done): going on with that run, ' +
        'so the rows it applied are not sent again (to apply these changes again, add --again)',
    );
  });

  it('is refused when that run was undone, naming both runs', () => {
    const applied = run('aaaaaaaa', '2026-11-26T10:00:00.000Z');
    const undo = run('uuuuuuuu', '2026-11-26T11:00:00.000Z', { plan: undefined, undoes: applied.run, undoesStarted: applied.record.started });
    expect(refusal(() => earlierApplyOf([applied], [applied, undo], apply()))?.message).toBe(
      'plan.ndjson was applied by run aaaaaaaa, which run uuuuuuuu undid; to apply these changes again, add --again (a new plan with new idempotency keys)',
    );
    // Only an undo among the listed runs counts.
    expect(earlierApplyOf([applied], [applied], apply())).toBe(applied);
  });

  it('is refused with --journal, which would start another run of it', () => {
    const applied = run('aaaaaaaa', '2026-11-26T10:00:00.000Z');
    expect(refusal(() => earlierApplyOf([applied], [applied], apply({ journal: 'mine.ndjson' })))?.message).toBe(
      `--journal: plan.ndjson was applied by run ${applied.run} (journal ${applied.path}); leave out --journal to go on with that run`,
    );
    // Without an earlier run, --journal starts one.
    expect(earlierApplyOf([], [], apply({ journal: 'mine.ndjson' }))).toBeUndefined();
  });

  it('is refused when a run of other shards shares rows with this one (unsharded, or another count)', () => {
    const unsharded = run('aaaaaaaa', '2026-11-26T10:00:00.000Z');
    const half = run('bbbbbbbb', '2026-11-26T10:00:00.000Z', { shard: '0/2' });
    const third = (index: number) => apply({ shard: parseShard(`${index}/3`) });
    expect(refusal(() => earlierApplyOf([unsharded], [], third(0)))?.message).toBe(
      '--shard: this shard shares rows with run aaaaaaaa, which applied the plan with no --shard: apply it as that run did, so that no row is sent twice',
    );
    expect(refusal(() => earlierApplyOf([half], [], apply()))?.message).toBe(
      '--shard: the plan shares rows with run bbbbbbbb, which applied the plan with --shard 0/2: apply it as that run did, so that no row is sent twice',
    );
    expect(refusal(() => earlierApplyOf([half], [], third(1)))?.message).toMatch(/with --shard 0\/2:/);
    // Another shard of the same count shares none: this one starts its own run.
    expect(earlierApplyOf([half], [], apply({ shard: parseShard('1/2') }))).toBeUndefined();
    expect(earlierApplyOf([half], [], apply({ shard: parseShard('0/2') }))).toBe(half);
  });

  it('names a run’s shard as its flag read', () => {
    expect(shardFlag('1/4')).toBe('--shard 1/4');
    expect(shardFlag(undefined)).toBe('no --shard');
  });
});
