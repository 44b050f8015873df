// The progress of a bulk run, without a terminal: its ETA under a paced (shared) request
// budget, the erasing of a drawn bar before any other output, accessible mode's whole lines,
// and the summary that tells conflicts apart from failures.
import path from 'node:path';
import { PassThrough, type Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Clock, IO, RowCounts } from '../../src/base/io.js';
import { Governor, type Ticket } from '../../src/http/governor.js';
import { FileBudget } from '../../src/http/governor-file.js';
import { etaSeconds, formatEta, paceShare, RunPace } from '../../src/output/eta.js';
import { LINE_EVERY_MS, progressDisplay, summaryLine } from '../../src/output/progress.js';
import { erasingLine, RedrawnLine } from '../../src/output/terminal-line.js';
import { virtualClock, type VirtualClock } from '../helpers/virtual-clock.js';
import { tempDir } from '../helpers/temp.js';

const counts = (ok: number, failed = 0): RowCounts => ({ ok, unchanged: 0, failed, invalid: 0, skipped: 0 });

function captured(): { stream: Writable; text: () => string } {
  const stream = new PassThrough();
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return { stream, text: () => text };
}

function terminal(stderr: Writable, stdout: Writable = new PassThrough()): IO {
  return { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: true, stderrIsTTY: true, stdinIsTTY: true, columns: 80 };
}

/** A clock moved by hand. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_000_000;
  return { now: () => now, sleep: () => Promise.resolve(), advance: (ms) => void (now += ms) };
}

async function answered(governor: Governor): Promise<Ticket> {
  const ticket = await governor.acquire();
  await governor.observe(ticket, 200);
  return ticket;
}

/** A process that joins a budget another process on the machine has met a limit on (the shared budget file). */
async function joinedPacedBudget(clock: VirtualClock): Promise<Governor> {
  const file = path.join(tempDir(), 'budget.json');
  const other = new Governor({ clock, store: new FileBudget(file, clock) });
  for (let i = 0; i < 10; i++) {
    await clock.run(answered(other));
    await clock.run(clock.sleep(100));
  }
  await clock.run(other.observe(await clock.run(other.acquire()), 429));
  const ours = new Governor({ clock, store: new FileBudget(file, clock) });
  await clock.run(ours.acquire());
  return ours;
}

describe('the ETA of a bulk run', () => {
  it('under a shared, paced budget follows the pace, not a first burst', async () => {
    const clock = virtualClock();
    const governor = await joinedPacedBudget(clock);
    // Two processes on the budget: this one may send half its pace.
    expect(governor.processes()).toBe(2);
    const share = () => paceShare(governor);
    expect(share()).toBeCloseTo(governor.pace()! / 2, 5);
    expect(share()!).toBeLessThan(10);
    // 100 rows, one a request: the first 4 came back within 100 ms (sent before the pace was known).
    const run = new RunPace(100, clock, share, 1);
    await clock.run(clock.sleep(100));
    const { eta, rate } = run.sample(4);
    // 40 rows/s so far would say 3 s; this process may send `share` requests a second.
    expect(eta).toBe(Math.ceil(96 / share()!));
    expect(eta!).toBeGreaterThan(10);
    expect(rate).toBeCloseTo(share()!, 5);
  });

  it('is drawn from the pace on the bar, with the pace shown', async () => {
    const clock = virtualClock();
    const governor = new Governor({ clock });
    // --max-rate 0.5: one request every 2 s, 2 rows a request.
    governor.limit(0.5);
    const err = captured();
    const bar = progressDisplay(terminal(err.stream), 28, clock, { pace: () => governor.pace(), rowsPerRequest: 2 });
    await clock.run(clock.sleep(200));
    bar.update(counts(4));
    // 24 rows left at 1 row/s (before: 20 rows/s from the first 200 ms, "ETA 2s").
    expect(err.text()).toMatch(/\[#+-+\] 4\/28 rows {2}0 failed {2}1 rows\/s {2}0\.5 req\/s {2}ETA 24s\u001b\[K$/);
  });

  it('is unknown, not 0 s, while nothing is done and nothing is paced', () => {
    expect(etaSeconds(10, 0)).toBeUndefined();
    expect(formatEta(undefined)).toBe('--');
    expect(etaSeconds(10, 0, 2)).toBe(5);
    expect(etaSeconds(10, 5, 2)).toBe(5);
    expect(etaSeconds(10, 1, 2)).toBe(10);
    expect(etaSeconds(0, 0)).toBe(0);
    expect(formatEta(125)).toBe('2m05s');
  });
});

describe('a drawn progress bar', () => {
  it('is erased, whole, before anything else reaches the terminal, and drawn again after', () => {
    const clock = manualClock();
    const screen = captured();
    // stdout and stderr on one terminal: the order of the writes is what it shows.
    const io = terminal(screen.stream, screen.stream);
    const line = new RedrawnLine();
    const guarded = erasingLine(io, line);
    const bar = progressDisplay(io, 4, clock, { line });
    bar.update(counts(1));
    guarded.stdout.write('LINE  ID\n');
    guarded.stderr.write('a line of chatter\n');
    clock.advance(100);
    bar.update(counts(2));
    bar.clear();
    bar.clear();
    const text = screen.text();
    expect(text).toMatch(/^\r\[#+-+\] 1\/4 rows[^\n]*\u001b\[K\r\u001b\[KLINE {2}ID\na line of chatter\n\r\[#+-+\] 2\/4 rows[^\n]*\u001b\[K\r\u001b\[K$/);
    // Erased once per drawing: nothing written when nothing is drawn.
    expect(text.match(/\r\u001b\[K/g)).toHaveLength(2);
  });

  it('is left alone by writes when none is drawn; the streams stay the streams (events, state)', () => {
    const screen = captured();
    const io = terminal(screen.stream, screen.stream);
    const guarded = erasingLine(io, new RedrawnLine());
    let errors = 0;
    const onError = () => errors++;
    guarded.stdout.on('error', onError);
    screen.stream.emit('error', new Error('EPIPE'));
    guarded.stdout.off('error', onError);
    expect(errors).toBe(1);
    expect(screen.stream.listenerCount('error')).toBe(0);
    expect(guarded.stdout.writableLength).toBe(screen.stream.writableLength);
    guarded.stdout.write('data\n');
    expect(screen.text()).toBe('data\n');
  });
});

describe('accessible progress', () => {
  it('is a whole line every few seconds with a percentage: no carriage return, no escape sequence', () => {
    const clock = manualClock();
    const err = captured();
    const lines = progressDisplay(terminal(err.stream), 1000, clock, { accessible: true });
    for (let done = 1; done <= 1000; done++) {
      clock.advance(20);
      lines.update(done > 500 ? counts(done - 1, 1) : counts(done));
    }
    lines.clear();
    const text = err.text();
    expect(text).not.toMatch(/[\r\u001b]/);
    const printed = text.trimEnd().split('\n');
    // 20 s of run, a line at most every LINE_EVERY_MS, the first at once.
    expect(printed.length).toBe(Math.ceil((1000 * 20) / LINE_EVERY_MS));
    expect(printed[0]).toBe('Progress: 0% (1 of 1000 rows, 0 failed, ETA 20s)');
    expect(printed[1]).toMatch(/^Progress: 25% \(251 of 1000 rows, 0 failed, ETA 15s\)$/);
    expect(printed.at(-1)).toMatch(/^Progress: 75% \(751 of 1000 rows, 1 failed, ETA 5s\)$/);
  });
});

describe('the summary of a run and the live progress', () => {
  // pipeline.ts counts a conflict among the failed rows and in `conflict`; both lines tell them apart.
  const tally: RowCounts = { ok: 900, unchanged: 0, failed: 100, conflict: 100, invalid: 0, skipped: 0 };

  it('the summary counts conflicts apart from failures', () => {
    expect(summaryLine(tally, 2000)).toBe('1000 rows: 900 ok, 100 conflict, 0 failed, 0 invalid, 0 skipped in 2.0 s (500 rows/s)');
    expect(summaryLine({ ...tally, failed: 103 }, 2000)).toMatch(/^1003 rows: 900 ok, 100 conflict, 3 failed, /);
    expect(summaryLine({ ...tally, conflict: undefined }, 2000)).toMatch(/^1000 rows: 900 ok, 100 failed, /);
  });

  it('the bar and the accessible lines count conflicts apart from failures', () => {
    for (const accessible of [false, true]) {
      const err = captured();
      const progress = progressDisplay(terminal(err.stream), 2000, manualClock(), { accessible });
      progress.update({ ...tally, failed: 103 });
      expect(err.text()).toMatch(/[ (]1003(\/| of )2000 rows( {2}|, )100 conflict( {2}|, )3 failed( {2}|, )/);
      expect(err.text()).not.toMatch(/103 failed/);
    }
  });
});
