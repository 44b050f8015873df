// The one way a test waits for something to happen (CONTRIBUTING.md, Waiting in tests): it
// polls a condition until it holds, and fails at a deadline scaled by PLATFORM_TEST_TIME_SCALE
// (test/helpers/time-scale.ts), naming what it waited for and what it saw last. A test never
// sleeps for "long enough": on a busy machine no fixed time is.
import { scaled } from './time-scale.js';

export interface WaitOptions {
  /** What is awaited, for the failure's message: "the state file written". */
  what: string;
  /** The deadline on an idle machine, in ms (10 s unless said); PLATFORM_TEST_TIME_SCALE scales it. */
  timeoutMs?: number;
  /** The state shown when the wait fails: the output so far, a count, a status. */
  state?: () => unknown;
  /** How often the condition is polled, in ms (10 unless said): not a deadline. */
  intervalMs?: number;
}

type Truthy<T> = Exclude<T, false | 0 | '' | null | undefined>;

/**
 * Resolves with the condition's first truthy value (so a match or a found record can be used
 * at once), checked at once and then every `intervalMs`. A condition that throws fails the wait.
 */
export async function waitFor<T>(condition: () => T | Promise<T>, { what, timeoutMs = 10_000, state, intervalMs = 10 }: WaitOptions): Promise<Truthy<T>> {
  const limit = scaled(timeoutMs);
  const deadline = Date.now() + limit;
  for (;;) {
    const value = await condition();
    if (value) return value as Truthy<T>;
    if (Date.now() >= deadline) {
      const last = state ? `; last state:\n${shown(state())}` : '';
      throw new Error(`timed out after ${limit} ms waiting for ${what}${last}`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  try {
    return JSON.stringify(value, null, 2) ?? String(value);
  } catch {
    return String(value);
  }
}
