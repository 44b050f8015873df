// A one-line progress bar on stderr (only when stderr is a terminal): rows done, failed,
// rate and ETA, redrawn at most ten times a second. While a rate limit paces the requests,
// it shows the pace, and the ETA follows the recent rate (waits included), not the run's average.
import type { Clock, IO, ProgressDisplay, RowCounts, TransferDisplay } from '../base/io.js';
import type { Writable } from 'node:stream';
import { rowCount } from '../bulk/results.js';

type Tally = RowCounts;

function tallyTotal(t: Tally): number {
  return t.ok + t.unchanged + t.failed + t.invalid + t.skipped;
}

/** The requests per second a rate limit paces at, or undefined while nothing is paced. */
export type PaceSource = () => number | undefined;

/** The bar for a bulk run of `total` rows: drawn only when stderr is a terminal. */
export function progressDisplay(io: IO, total: number, clock: Clock, pace?: PaceSource): ProgressDisplay {
  if (!io.stderrIsTTY || total <= 1) return { update() {}, clear() {} };
  return new ProgressBar(io.stderr, total, clock, pace, io.columns);
}

/** The ETA of a paced run follows the rows done in this last stretch of time. */
const RECENT_MS = 10_000;
const BAR_WIDTH = 24;
const NARROWEST_BAR = 8;

export class ProgressBar implements ProgressDisplay {
  #lastDraw = 0;
  readonly #started: number;
  /** (time, rows done) at each draw of the last RECENT_MS. */
  readonly #recent: Array<[number, number]> = [];

  constructor(
    private readonly out: Writable,
    private readonly total: number,
    private readonly clock: Clock,
    private readonly pace: PaceSource = () => undefined,
    private readonly columns = 80,
  ) {
    this.#started = clock.now();
  }

  update(tally: Tally, force = false): void {
    const now = this.clock.now();
    if (!force && now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const done = tallyTotal(tally);
    this.#recent.push([now, done]);
    while (this.#recent.length > 1 && this.#recent[0]![0] < now - RECENT_MS) this.#recent.shift();
    const seconds = (now - this.#started) / 1000;
    const average = seconds > 0 ? done / seconds : 0;
    const pace = this.pace();
    const [since, doneThen] = this.#recent[0]!;
    // Paced: the recent rate, which has the waits of the current pace in it (a 429 lowers it at once).
    const rate = pace !== undefined && now - since >= 1000 ? ((done - doneThen) * 1000) / (now - since) : average;
    const eta = rate > 0 ? Math.ceil((this.total - done) / rate) : 0;
    const paced = pace === undefined ? '' : `  ${pace.toFixed(pace < 10 ? 1 : 0)} req/s`;
    const text = ` ${done}/${this.total} rows  ${tally.failed} failed  ${Math.round(rate)} rows/s${paced}  ETA ${eta}s`;
    // One line: a narrower bar rather than a wrapped line (\r would redraw only its second half).
    const width = Math.max(NARROWEST_BAR, Math.min(BAR_WIDTH, this.columns - 1 - 2 - text.length));
    const filled = this.total ? Math.round((done / this.total) * width) : width;
    this.out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${text}\u001b[K`);
  }

  clear(): void {
    this.out.write('\r\u001b[K');
  }
}

/** The bar of a download of `totalBytes`: drawn only when stderr is a terminal. */
export function transferDisplay(io: IO, totalBytes: number, clock: Clock): TransferDisplay {
  if (!io.stderrIsTTY) return { update() {}, clear() {} };
  const started = clock.now();
  let lastDraw = 0;
  return {
    update(bytes) {
      const now = clock.now();
      if (now - lastDraw < 100 && bytes < totalBytes) return;
      lastDraw = now;
      const width = 24;
      const filled = totalBytes ? Math.min(width, Math.round((bytes / totalBytes) * width)) : 0;
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? bytes / seconds : 0;
      io.stderr.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${formatBytes(bytes)} of ${formatBytes(totalBytes)}  ${formatBytes(rate)}/s\u001b[K`,
      );
    },
    clear() {
      io.stderr.write('\r\u001b[K');
    },
  };
}

/** 1536 -> "1.5 KB"; decimal units, as curl and browsers show sizes. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export function summaryLine(tally: Tally, elapsedMs: number): string {
  const total = tallyTotal(tally);
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(total / seconds) : total;
  return `${rowCount(total)}: ${tally.ok} ok, ${tally.unchanged ? `${tally.unchanged} unchanged, ` : ''}${tally.failed} failed, ${tally.invalid} invalid, ${tally.skipped} skipped in ${seconds.toFixed(1)} s (${rate} rows/s)`;
}
