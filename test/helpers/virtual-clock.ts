// A clock of virtual time for tests of timing logic: sleeps end in time order, and time
// moves only when every task is waiting on a sleep, so concurrent workers, pacing and rate
// windows run in milliseconds and give the same result on every run.
import type { Clock } from '../../src/base/io.js';
import { waitFor } from './wait.js';

interface Timer {
  at: number;
  seq: number;
  resolve: () => void;
}

export interface VirtualClock extends Clock {
  /** Runs `work` to its end, moving time forward whenever nothing else can run. */
  run<T>(work: Promise<T>): Promise<T>;
}

export function virtualClock(start = 1_750_000_000_000): VirtualClock {
  let now = start;
  let seq = 0;
  const timers: Timer[] = [];
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  return {
    now: () => now,
    sleep(ms, signal) {
      return new Promise<void>((resolve, reject) => {
        if (signal?.aborted) return reject(signal.reason);
        const timer = { at: now + Math.max(0, ms), seq: seq++, resolve };
        timers.push(timer);
        // As the real clock's: an aborted sleep leaves no timer to move time to.
        signal?.addEventListener(
          'abort',
          () => {
            const index = timers.indexOf(timer);
            if (index >= 0) timers.splice(index, 1);
            reject(signal.reason);
          },
          { once: true },
        );
      });
    },
    async run(work) {
      let done = false;
      const result = work.finally(() => (done = true));
      result.catch(() => {});
      for (;;) {
        // Let every task run until it waits on a sleep (a module import or file I/O takes a few turns).
        for (let i = 0; i < 5; i++) await settle();
        // Nothing waits on virtual time: real work is under way (a module loading, a file): real time, until it sleeps or ends.
        await waitFor(() => timers.length > 0 || done, { what: 'virtual clock: the work to sleep or end (nothing waits on virtual time)', intervalMs: 2 });
        if (done) return result;
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers.shift()!;
        now = Math.max(now, next.at);
        next.resolve();
      }
    },
  };
}
