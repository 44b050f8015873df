// The runs that applied a plan. A run's journal keeps the plan's id, so the runs directory
// finds the runs kept there; an apply given `--journal` elsewhere leaves a note in the runs
// directory naming that journal, or a later apply without `--journal` would not find the run
// and would apply the plan again (a create's rows created twice).
import fs from 'node:fs';
import path from 'node:path';
import { findRun, type RunSummary } from './runs.js';
import { shardPart, type Shard } from '../shard.js';

const NOTE_SUFFIX = '.journal';

/** A file of this plan (and shard) in the runs directory: its apply's lock (`.lock`), its note (`.journal`). */
export function planFile(dir: string, plan: string, shard: Shard | undefined, suffix: string): string {
  return path.join(dir, `plan-${plan}${shardPart(shard)}${suffix}`);
}

/** Notes that this plan (and shard) is applied by the run of `journal`, kept outside the runs directory. */
export function noteJournal(dir: string, plan: string, shard: Shard | undefined, journal: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.writeFileSync(planFile(dir, plan, shard, NOTE_SUFFIX), `${path.resolve(journal)}\n`, { mode: 0o600 });
}

/** The runs of this plan that notes name (journals kept elsewhere that still exist), besides `listed`. */
export function notedRuns(dir: string, plan: string, listed: readonly RunSummary[]): RunSummary[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir).filter((name) => name.startsWith(`plan-${plan}`) && name.endsWith(NOTE_SUFFIX));
  } catch {
    return [];
  }
  const known = new Set(listed.map((run) => path.resolve(run.path)));
  const runs: RunSummary[] = [];
  for (const name of names) {
    const journal = fs.readFileSync(path.join(dir, name), 'utf8').trim();
    if (!journal || known.has(journal) || !fs.existsSync(journal)) continue;
    const run = findRunQuietly(dir, journal);
    if (run?.record.plan === plan) runs.push(run);
  }
  return runs;
}

/** The run of a journal; none when it is no longer a run's journal. */
function findRunQuietly(dir: string, journal: string): RunSummary | undefined {
  try {
    return findRun(dir, journal);
  } catch {
    return undefined;
  }
}
