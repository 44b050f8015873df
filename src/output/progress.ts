// A bulk run's progress on stderr (only when stderr is a terminal): rows done, failed (and in
// conflict, apart), rate
// and ETA (eta.ts), as a bar redrawn in place at most ten times a second, or in accessible mode
// as a whole line every few seconds with a percentage (nothing redrawn, no cursor moved). A
// drawn bar is erased before anything else reaches the terminal (terminal-line.ts).
import type { Clock, IO, ProgressDisplay, RowCounts, TransferDisplay } from '../base/io.js';
import type { Writable } from 'node:stream';
import { rowCount } from '../bulk/results.js';
import { formatEta, RunPace, type PaceSource } from './eta.js';
import type { RedrawnLine } from './terminal-line.js';

export type { PaceSource } from './eta.js';

type Tally = RowCounts;

function tallyTotal(t: Tally): number {
  return t.ok + t.unchanged + t.failed + t.invalid + t.skipped;
}

/** `3 failed` or `1 conflict, 2 failed`: the rows in conflict are not counted among the failed. */
function notDone(t: Tally, separator: string): string {
  const conflict = t.conflict ?? 0;
  return `${conflict ? `${conflict} conflict${separator}` : ''}${t.failed - conflict} failed`;
}

export interface ProgressOptions {
  /** The pace of the profile's shared request budget. */
  pace?: PaceSource;
  /** Rows sent in one request (the batch size): with the pace, the rows per second allowed. */
  rowsPerRequest?: number;
  /** The terminal's redrawn line, erased by any other write (the factory's). */
  line?: RedrawnLine;
  /** Whole lines, never redrawn. */
  accessible?: boolean;
}

/** The progress of a bulk run of `total` rows: shown only when stderr is a terminal. */
export function progressDisplay(io: IO, total: number, clock: Clock, options: ProgressOptions = {}): ProgressDisplay {
  if (!io.stderrIsTTY || total <= 1) return { update() {}, clear() {} };
  const pace = new RunPace(total, clock, options.pace, options.rowsPerRequest);
  if (options.accessible) return new ProgressLines(io.stderr, total, clock, pace);
  return new ProgressBar(io.stderr, total, clock, pace, io.columns, options.line);
}

const BAR_WIDTH = 24;
const NARROWEST_BAR = 8;
/** Accessible mode: a line at most this often (a screen reader reads each one whole). */
export const LINE_EVERY_MS = 5000;
const ERASE = '\r\u001b[K';

export class ProgressBar implements ProgressDisplay {
  #lastDraw = 0;
  #drawn = false;

  constructor(
    private readonly out: Writable,
    private readonly total: number,
    private readonly clock: Clock,
    private readonly pace: RunPace,
    private readonly columns = 80,
    private readonly line?: RedrawnLine,
  ) {}

  update(tally: Tally, force = false): void {
    const now = this.clock.now();
    if (!force && now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const done = tallyTotal(tally);
    const { rate, eta, pace } = this.pace.sample(done);
    const paced = pace === undefined ? '' : `  ${pace.toFixed(pace < 10 ? 1 : 0)} req/s`;
    const text = ` ${done}/${this.total} rows  ${notDone(tally, '  ')}  ${Math.round(rate)} rows/s${paced}  ETA ${formatEta(eta)}`;
    // One line: a narrower bar rather than a wrapped line (\r would redraw only its second half).
    const width = Math.max(NARROWEST_BAR, Math.min(BAR_WIDTH, this.columns - 1 - 2 - text.length));
    const filled = this.total ? Math.round((done / this.total) * width) : width;
    this.out.write(`\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}]${text}\u001b[K`);
    this.#drawn = true;
    this.line?.drawn(() => this.clear());
  }

  clear(): void {
    if (!this.#drawn) return;
    this.#drawn = false;
    this.out.write(ERASE);
  }
}

/** Accessible mode: `Progress: 40% (400 of 1000 rows, 0 failed, ETA 12s)`, a whole line every few seconds. */
export class ProgressLines implements ProgressDisplay {
  #lastLine = -Infinity;

  constructor(
    private readonly out: Writable,
    private readonly total: number,
    private readonly clock: Clock,
    private readonly pace: RunPace,
  ) {}

  update(tally: Tally): void {
    const now = this.clock.now();
    const done = tallyTotal(tally);
    const { eta } = this.pace.sample(done);
    // The last row is told by the summary that follows.
    if (done >= this.total || now - this.#lastLine < LINE_EVERY_MS) return;
    this.#lastLine = now;
    const percent = Math.floor((done / this.total) * 100);
    this.out.write(`Progress: ${percent}% (${done} of ${this.total} rows, ${notDone(tally, ', ')}, ETA ${formatEta(eta)})\n`);
  }

  clear(): void {}
}

/** The bar of a download of `totalBytes`: shown only when stderr is a terminal. */
export function transferDisplay(
  io: IO,
  totalBytes: number,
  clock: Clock,
  { line, accessible }: Pick<ProgressOptions, 'line' | 'accessible'> = {},
): TransferDisplay {
  if (!io.stderrIsTTY) return { update() {}, clear() {} };
  const started = clock.now();
  let lastDraw = accessible ? -Infinity : 0;
  let drawn = false;
  const clear = () => {
    if (!drawn) return;
    drawn = false;
    io.stderr.write(ERASE);
  };
  return {
    update(bytes) {
      const now = clock.now();
      if (accessible) {
        if (bytes >= totalBytes || now - lastDraw < LINE_EVERY_MS) return;
        lastDraw = now;
        const percent = totalBytes ? Math.floor((bytes / totalBytes) * 100) : 0;
        io.stderr.write(`Downloaded: ${percent}% (${formatBytes(bytes)} of ${formatBytes(totalBytes)})\n`);
        return;
      }
      if (now - lastDraw < 100 && bytes < totalBytes) return;
      lastDraw = now;
      const width = 24;
      const filled = totalBytes ? Math.min(width, Math.round((bytes / totalBytes) * width)) : 0;
      const seconds = (now - started) / 1000;
      const rate = seconds > 0 ? bytes / seconds : 0;
      io.stderr.write(
        `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${formatBytes(bytes)} of ${formatBytes(totalBytes)}  ${formatBytes(rate)}/s\u001b[K`,
      );
      drawn = true;
      line?.drawn(clear);
    },
    clear,
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

/** `1,000 rows: 900 ok, 100 conflict, 0 failed, ...`: the rows in conflict are told apart. */
export function summaryLine(tally: Tally, elapsedMs: number): string {
  const total = tallyTotal(tally);
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(total / seconds) : total;
  const unchanged = tally.unchanged ? `${tally.unchanged} unchanged, ` : '';
  return `${rowCount(total)}: ${tally.ok} ok, ${unchanged}${notDone(tally, ', ')}, ${tally.invalid} invalid, ${tally.skipped} skipped in ${seconds.toFixed(1)} s (${rate} rows/s)`;
}
