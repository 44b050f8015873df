// One setting for every deadline in the suite: PLATFORM_TEST_TIME_SCALE (default 1) multiplies
// test and hook timeouts and the deadlines tests wait on, so a slow or busy machine gets more
// time without any test changing. Waits themselves are on events, never on fixed timers.
const raw = process.env.PLATFORM_TEST_TIME_SCALE;
const factor = raw === undefined || raw === '' ? 1 : Number(raw);
if (!Number.isFinite(factor) || factor <= 0) throw new Error(`PLATFORM_TEST_TIME_SCALE must be a positive number, not ${JSON.stringify(raw)}`);

/** The time scale in force. */
export const timeScale = factor;

/** A deadline of `ms` milliseconds on an idle machine, scaled by PLATFORM_TEST_TIME_SCALE. */
export function scaled(ms: number): number {
  return Math.round(ms * factor);
}
