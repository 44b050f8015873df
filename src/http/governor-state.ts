// The request budget a governor paces by, as data and pure rules, so that processes sharing
// one budget (a state file) apply the same rules to the same numbers. The pace comes from
// what the server said: a 429 measures the rate it accepted (our sends in the second before
// the refused one), the pace drops to 80 % of that, climbs back quickly to 92 % and stays
// there for a while (a cubic curve, as TCP CUBIC and AWS's adaptive retry mode), then probes
// above it, so a raised limit or a process that left is found again.

/** The servers' usual quota window: a limit of R requests per second. */
export const WINDOW_MS = 1000;
/** A 429 this long after a drop still belongs to its event (a burst in flight), and recounts it. */
const EVENT_MS = 2 * WINDOW_MS;
/** Sends are remembered this long: an event's window ends at most EVENT_MS ago. */
const KEEP_MS = EVENT_MS + WINDOW_MS;
/** After a 429 the pace restarts at this share of the measured rate ... */
export const DECREASE = 0.8;
/** ... climbs to this share (a margin for jitter: the server counts arrivals, not our sends) ... */
export const PLATEAU = 0.92;
/** ... reaching it after this many seconds, flat around it, then probing above. */
export const PLATEAU_SECONDS = 12;
const GROWTH = (PLATEAU - DECREASE) / PLATEAU_SECONDS ** 3;
/** However long without a 429, the pace stays under twice what is sent (a pace nobody uses proves nothing). */
const MAX_OVER_SENT = 2;
/** The least pace a measurement gives. */
export const MIN_RATE = 0.1;
/** A limit measured this long ago is forgotten: the server or its other clients have changed. */
export const FORGET_MS = 30 * 60_000;
/**
 * The first limit met by several processes at once is measured from what they had told the
 * budget by then, which may be little: from it the pace doubles every this many seconds
 * until the next 429 (slow start), which is measured from everyone's paced sends.
 */
const SLOW_START_DOUBLING_SECONDS = 3;
/** A process that has not used the budget for this long no longer shares it. */
const MEMBER_MS = 5000;
/** A Retry-After longer than one window is a quota that ran out: every request waits, not only the refused one. */
const HOLD_ALL_AFTER_MS = WINDOW_MS;

export interface BudgetState {
  version: 1;
  /** Requests per second the server accepted when it last refused one (absent: no limit seen). */
  ceiling?: number;
  /** When the pace last dropped: the origin of the climb. */
  since: number;
  /** The send time of the request whose refusal measured the ceiling. */
  event?: number;
  /** That refusal's Retry-After. */
  retryAfterMs?: number;
  /** The ceiling is the first one measured, while other processes were not pacing yet. */
  provisional?: boolean;
  /** Processes using the budget (their ids) and when each last did. */
  members?: Record<string, number>;
  /** The earliest time the next paced request may start. */
  nextSlot: number;
  /** No request starts before this (a long Retry-After, or a quota header saying none is left). */
  holdUntil: number;
  /** Send times (ms since the epoch) of requests not known to be refused, the last two seconds, ascending. */
  sent: number[];
}

export function emptyBudget(now: number): BudgetState {
  return { version: 1, since: now, nextSlot: now, holdUntil: 0, sent: [] };
}

/** Requests per second to pace at, or undefined while no limit is known (and none is set). */
export function paceOf(state: BudgetState, now: number, maxRate?: number): number | undefined {
  let rate: number | undefined;
  if (state.ceiling !== undefined) {
    const seconds = Math.max(0, now - state.since) / 1000;
    rate =
      state.provisional && sharers(state, now) > 1
        ? state.ceiling * DECREASE * 2 ** (seconds / SLOW_START_DOUBLING_SECONDS)
        : state.ceiling * (PLATEAU + GROWTH * (seconds - PLATEAU_SECONDS) ** 3);
    if (rate > state.ceiling) rate = Math.min(rate, Math.max(state.ceiling, MAX_OVER_SENT * sentInWindow(state.sent, now)));
  }
  if (maxRate !== undefined) rate = rate === undefined ? maxRate : Math.min(rate, maxRate);
  return rate;
}

/**
 * Takes `count` send times from the budget and remembers them as sent: spaced at `rate`, and
 * never more than `rate` (rounded up) in any window, counting every send the budget knows of
 * (right after a 429 the window is full: the next send waits until enough of it has passed).
 * Unpaced: all at once.
 */
export function reserve(state: BudgetState, now: number, rate: number | undefined, count: number): number[] {
  const slots: number[] = [];
  let next = Math.max(now, state.holdUntil, rate === undefined ? now : state.nextSlot);
  for (let i = 0; i < count; i++) {
    if (rate !== undefined) next = windowSlot(state.sent, next, Math.ceil(rate - 1e-9));
    slots.push(next);
    addSends(state, [next]);
    if (rate !== undefined) next += WINDOW_MS / rate;
  }
  if (rate !== undefined) state.nextSlot = next;
  return slots;
}

/** Arrivals at the server vary by some milliseconds; a send waits this much longer for the window to move. */
const WINDOW_MARGIN_MS = 30;

/** The earliest time from `at` when fewer than `limit` sends are in the window that ends then. */
function windowSlot(sent: readonly number[], at: number, limit: number): number {
  let time = at;
  // Sends after `time` (another process's reservations) may move it again: a few rounds settle it.
  for (let round = 0; round < 8; round++) {
    const inWindow = sent.filter((t) => t > time - WINDOW_MS - WINDOW_MARGIN_MS && t <= time);
    if (inWindow.length < limit) return time;
    time = inWindow[inWindow.length - limit]! + WINDOW_MS + WINDOW_MARGIN_MS;
  }
  return time;
}

/** Adds send times made outside the budget (unpaced, before this process joined it). */
export function addSends(state: BudgetState, times: readonly number[]): void {
  if (times.length === 0) return;
  const last = state.sent.at(-1) ?? -Infinity;
  state.sent.push(...times);
  if (times[0]! < last || !isAscending(times)) state.sent.sort((a, b) => a - b);
}

/** Drops send times no measurement will need, and a limit measured too long ago. */
export function forgetOld(state: BudgetState, now: number): void {
  const keepFrom = now - KEEP_MS;
  let drop = 0;
  while (drop < state.sent.length && state.sent[drop]! < keepFrom) drop++;
  if (drop) state.sent.splice(0, drop);
  if (state.ceiling !== undefined && now - state.since > FORGET_MS) {
    delete state.ceiling;
    delete state.event;
    delete state.provisional;
  }
}

/** Unused send times given back (a process dropping the slots it reserved and did not use). */
export function giveBack(state: BudgetState, slots: readonly number[]): void {
  for (const slot of slots) removeOne(state.sent, slot);
}

/**
 * A 429 for the request sent at `slot`. A request sent after the last drop starts a new
 * congestion event: the ceiling is what the budget sent in the window before it, and the
 * climb restarts. A request sent before it belongs to the same event: the ceiling is counted
 * again for that window, now knowing one more refused request (the one reduction per event
 * of TCP: a burst of 429s is one signal). A Retry-After longer than a window holds everyone.
 */
export function refuse(state: BudgetState, slot: number, now: number, retryAfterMs?: number): void {
  removeOne(state.sent, slot);
  const sameEvent = state.event !== undefined && state.ceiling !== undefined && slot < state.since && now - state.since < EVENT_MS;
  if (!sameEvent) {
    state.provisional = state.ceiling === undefined;
    state.ceiling = MIN_RATE; // counted below
    state.event = slot;
    state.since = now;
    state.nextSlot = Math.max(state.nextSlot, now);
    state.retryAfterMs = retryAfterMs;
  }
  recount(state, now);
  if (retryAfterMs !== undefined && retryAfterMs > HOLD_ALL_AFTER_MS) state.holdUntil = Math.max(state.holdUntil, now + retryAfterMs);
}

/**
 * The ceiling counted again from the sends the budget knows, while its event is recent: a
 * refusal takes one out, a process joining the budget adds the sends it made before (so the
 * first 429 of several processes measures all of them, not only the one that met it). When
 * nothing else was accepted in the window, one request per Retry-After (or per second).
 */
export function recount(state: BudgetState, now: number): void {
  if (state.event === undefined || state.ceiling === undefined || now - state.since >= EVENT_MS) return;
  const measured = sentInWindow(state.sent, state.event);
  const fallback = WINDOW_MS / Math.max(WINDOW_MS, state.retryAfterMs ?? WINDOW_MS);
  state.ceiling = Math.max(MIN_RATE, measured > 0 ? measured : fallback);
}

/** Marks `member` as using the budget now, and forgets those that have not for a while. */
export function touch(state: BudgetState, member: string, now: number): void {
  const members = (state.members ??= {});
  members[member] = now;
  for (const [id, seen] of Object.entries(members)) if (now - seen > MEMBER_MS) delete members[id];
}

/** How many processes use the budget. */
export function sharers(state: BudgetState, now: number): number {
  return Object.values(state.members ?? {}).filter((seen) => now - seen <= MEMBER_MS).length;
}

/** A quota header said none is left until `until`: nobody sends before then. */
export function holdUntil(state: BudgetState, until: number): void {
  state.holdUntil = Math.max(state.holdUntil, until);
}

/** Requests sent in the window that ends at `at` (inclusive), as requests per second. */
export function sentInWindow(sent: readonly number[], at: number): number {
  let count = 0;
  for (const time of sent) if (time > at - WINDOW_MS && time <= at) count++;
  return (count * 1000) / WINDOW_MS;
}

/** A budget read from a file: anything unexpected is no budget (a newer version, a torn or edited file). */
export function parseBudget(text: string, now: number): BudgetState | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const v = value as Partial<BudgetState> | null;
  if (!v || v.version !== 1 || !finite(v.since) || !finite(v.nextSlot) || !finite(v.holdUntil) || !Array.isArray(v.sent) || !v.sent.every(finite)) {
    return undefined;
  }
  if (v.ceiling !== undefined && !(finite(v.ceiling) && v.ceiling > 0)) return undefined;
  const state: BudgetState = { version: 1, since: v.since, nextSlot: v.nextSlot, holdUntil: v.holdUntil, sent: [...v.sent].sort((a, b) => a - b) };
  if (v.ceiling !== undefined) state.ceiling = v.ceiling;
  if (finite(v.event)) state.event = v.event;
  if (finite(v.retryAfterMs)) state.retryAfterMs = v.retryAfterMs;
  if (v.provisional === true) state.provisional = true;
  if (v.members && typeof v.members === 'object') {
    state.members = Object.fromEntries(Object.entries(v.members).filter(([, seen]) => finite(seen)));
  }
  // Times far in the future come from a clock that was wrong: they would stall every process.
  const horizon = now + 10 * 60_000;
  if (state.nextSlot > horizon) state.nextSlot = now;
  if (state.holdUntil > horizon) state.holdUntil = 0;
  forgetOld(state, now);
  return state;
}

function finite(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value);
}

function isAscending(times: readonly number[]): boolean {
  for (let i = 1; i < times.length; i++) if (times[i]! < times[i - 1]!) return false;
  return true;
}

function removeOne(sorted: number[], value: number): void {
  const index = sorted.indexOf(value);
  if (index >= 0) sorted.splice(index, 1);
}
