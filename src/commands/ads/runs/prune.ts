import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { pruneRuns, shortRunName } from '../../../bulk/runs/runs.js';
import type { RunsPruneFlags } from '../spec.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export async function run(ctx: Context, flags: RunsPruneFlags): Promise<void> {
  if (flags.olderThan === undefined && flags.keep === undefined) throw new UsageError('say which runs to remove: --older-than DAYS, --keep N, or both');
  if (flags.olderThan !== undefined && flags.olderThan < 0) throw new UsageError('--older-than must be 0 or more days');
  if (flags.keep !== undefined && flags.keep < 0) throw new UsageError('--keep must be 0 or more');
  const { removed, interruptedKept } = pruneRuns(
    ctx.paths.runs,
    { ...(flags.olderThan !== undefined ? { olderThanMs: flags.olderThan * DAY_MS } : {}), ...(flags.keep !== undefined ? { keep: flags.keep } : {}) },
    ctx.clock.now(),
  );
  ctx.info(`Removed ${removed.length} run${removed.length === 1 ? '' : 's'}`);
  if (interruptedKept.length) {
    const one = interruptedKept.length === 1;
    const them = one ? `1 interrupted run (${shortRunName(interruptedKept[0]!.run)})` : `${interruptedKept.length} interrupted runs`;
    const it = one ? 'it' : 'them';
    ctx.info(`Kept ${them} beyond --keep: resume or undo ${it} first (platform ads runs show RUN says how), or remove ${it} by age with --older-than`);
  }
  await Promise.resolve();
}
