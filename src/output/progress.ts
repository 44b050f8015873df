// A one-line progress bar on stderr (only when stderr is a terminal): rows done, failed,
// rate and ETA, redrawn at most ten times a second.
import type { Clock } from '../context.js';
import type { Writable } from 'node:stream';

export interface Tally {
  ok: number;
  failed: number;
  invalid: number;
  skipped: number;
}

export function tallyTotal(t: Tally): number {
  return t.ok + t.failed + t.invalid + t.skipped;
}

export class ProgressBar {
  #lastDraw = 0;
  readonly #started: number;

  constructor(private readonly out: Writable, private readonly total: number, private readonly clock: Clock) {
    this.#started = clock.now();
  }

  update(tally: Tally, force = false): void {
    const now = this.clock.now();
    if (!force && now - this.#lastDraw < 100) return;
    this.#lastDraw = now;
    const done = tallyTotal(tally);
    const width = 24;
    const filled = this.total ? Math.round((done / this.total) * width) : width;
    const seconds = (now - this.#started) / 1000;
    const rate = seconds > 0 ? done / seconds : 0;
    const eta = rate > 0 ? Math.ceil((this.total - done) / rate) : 0;
    this.out.write(
      `\r[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${done}/${this.total} rows  ${tally.failed} failed  ${Math.round(rate)} rows/s  ETA ${eta}s\u001b[K`,
    );
  }

  clear(): void {
    this.out.write('\r\u001b[K');
  }
}

export function summaryLine(tally: Tally, elapsedMs: number): string {
  const total = tallyTotal(tally);
  const seconds = elapsedMs / 1000;
  const rate = seconds > 0 ? Math.round(total / seconds) : total;
  return `${total} rows: ${tally.ok} ok, ${tally.failed} failed, ${tally.invalid} invalid, ${tally.skipped} skipped in ${seconds.toFixed(1)} s (${rate} rows/s)`;
}
