// The rate and ETA of a bulk run. Unpaced, they follow the run's average. While a rate limit
// paces the requests (the governor's pace, shared by every process on the profile's budget),
// the rate is the recent one (its waits included, so a 429 lowers it at once) and never more
// than the pace allows: a first burst sent before the limit was met (2 s of ETA for a run
// that took 14) says nothing of the rows still to send.
import type { Clock } from '../base/io.js';

/** The requests per second a rate limit paces at, or undefined while nothing is paced. */
export type PaceSource = () => number | undefined;

/** This process's share of a request budget's pace (undefined while unpaced): the processes using it share it. */
export function paceShare(budget: { pace(): number | undefined; processes(): number }): number | undefined {
  const pace = budget.pace();
  return pace === undefined ? undefined : pace / Math.max(1, budget.processes());
}

/** Rows per second the pace allows: requests per second times rows per request. */
export function pacedRate(pace: number | undefined, rowsPerRequest: number): number | undefined {
  return pace === undefined ? undefined : pace * Math.max(1, rowsPerRequest);
}

/** Seconds left for `remaining` rows at `rate` rows/s, no faster than `allowed`; undefined while nothing says how fast. */
export function etaSeconds(remaining: number, rate: number, allowed?: number): number | undefined {
  if (remaining <= 0) return 0;
  const pace = allowed === undefined ? rate : rate > 0 ? Math.min(rate, allowed) : allowed;
  return pace > 0 ? Math.ceil(remaining / pace) : undefined;
}

/** The ETA of a paced run follows the rows done in this last stretch of time. */
const RECENT_MS = 10_000;

export interface RunSpeed {
  /** Rows per second, as shown. */
  rate: number;
  /** Seconds left, or undefined while nothing says. */
  eta: number | undefined;
  /** Requests per second of the pace, when paced. */
  pace: number | undefined;
}

/** Samples of rows done over time, and what they say of the rest of a run of `total` rows. */
export class RunPace {
  readonly #started: number;
  /** (time, rows done) at each sample of the last RECENT_MS. */
  readonly #recent: Array<[number, number]> = [];

  constructor(
    private readonly total: number,
    private readonly clock: Clock,
    private readonly pace: PaceSource = () => undefined,
    private readonly rowsPerRequest = 1,
  ) {
    this.#started = clock.now();
  }

  sample(done: number): RunSpeed {
    const now = this.clock.now();
    this.#recent.push([now, done]);
    while (this.#recent.length > 1 && this.#recent[0]![0] < now - RECENT_MS) this.#recent.shift();
    const seconds = (now - this.#started) / 1000;
    const average = seconds > 0 ? done / seconds : 0;
    const pace = this.pace();
    const [since, doneThen] = this.#recent[0]!;
    const observed = pace !== undefined && now - since >= 1000 ? ((done - doneThen) * 1000) / (now - since) : average;
    const allowed = pacedRate(pace, this.rowsPerRequest);
    const rate = allowed === undefined || observed === 0 ? observed : Math.min(observed, allowed);
    return { rate, eta: etaSeconds(this.total - done, observed, allowed), pace };
  }
}

/** `12s`, `3m05s`, `--` when not known. */
export function formatEta(seconds: number | undefined): string {
  if (seconds === undefined) return '--';
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
}
