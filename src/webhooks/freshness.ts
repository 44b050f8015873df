// The replay guard of signed webhooks (Stripe's scheme has it): a valid signature proves who
// made a body, not when, so a body whose event_time (spec 6.1: seconds since the epoch) is far
// from now may be a captured delivery sent again. The caller decides what to do with it.

export const DEFAULT_TOLERANCE = '5m';

export interface Staleness {
  /** now - event_time, in ms: positive for the past, negative for the future. */
  ageMs: number;
  warning: string;
}

/** A one-line warning when event_time is more than `toleranceMs` from `now`; undefined otherwise. */
export function checkFreshness(eventTimeSeconds: number | undefined, now: number, toleranceMs: number, toleranceText: string): Staleness | undefined {
  if (eventTimeSeconds === undefined || !Number.isFinite(eventTimeSeconds)) return undefined;
  const at = eventTimeSeconds * 1000;
  const ageMs = now - at;
  if (Math.abs(ageMs) <= toleranceMs) return undefined;
  const when = new Date(at).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const warning =
    ageMs > 0
      ? `event_time ${when} is ${span(ageMs)} old, more than --tolerance ${toleranceText}: the signature is valid but this may be a replayed delivery`
      : `event_time ${when} is ${span(-ageMs)} in the future, more than --tolerance ${toleranceText}: check the sender's clock`;
  return { ageMs, warning };
}

/** 301 s, 12 min, 3 h, 40 days: seconds up to ten minutes, then the largest unit that fits, rounded down. */
function span(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s < 600) return `${s} s`;
  if (s < 7200) return `${Math.floor(s / 60)} min`;
  if (s < 172_800) return `${Math.floor(s / 3600)} h`;
  return `${Math.floor(s / 86_400)} days`;
}
