// The request budget a governor paces by, as data and pure rules, so that processes sharing
// one budget (a state file) apply the same rules to the same numbers. The pace comes from
// what the server said: a 429 measures the rate it accepted (our sends in the second before
// the refused one), the pace drops to 80 % of that, climbs back quickly to 92 % and stays
// there for a while (a cubic curve, as TCP CUBIC and AWS's adaptive retry mode), then probes
// above it, so a raised limit or a process that left is found again.
// Not every 429 is a limit: a server also refuses a request now and then for reasons of its
// own (a busy shard, a sporadic throttle). A 429 sent while the budget sent well under the
// known limit, among successes, says nothing about the limit: it is retried after its
// Retry-After and the pace is kept. Only refusals that come often while under the limit (a
// limit that was lowered, or other clients on the same quota) lower it, by half at most. A
// 429 after the server accepted more than the known limit in a window says the limit is
// higher: it is raised to what was accepted and the pace doubles from it (slow start) until a
// 429 at the limit, so a limit measured low (early in a run, or from a sporadic refusal) does
// not keep the pace low.

/** The servers' usual quota window: a limit of R requests per second. */
export const WINDOW_MS = 1000;
/** A 429 this long after a drop still belongs to its event (a burst in flight), and recounts it. */
const EVENT_MS = 2 * WINDOW_MS;
/** Refusals under the known limit are judged by the share of the requests sent in this period they are. */
const DENSE_PERIOD_MS = 5000;
/** Refusals under the known limit mean a lower limit when at least this many in the period ... */
const DENSE_COUNT = 3;
/** ... make at least this share of its requests (sporadic throttling, e.g. 10 %, stays under it). */
const DENSE_SHARE = 0.3;
/** A 429 sent when the window held this share of the known limit or more met the limit (the probe above it, or jitter at it). */
const AT_LIMIT = 0.96;
/** A raised limit may be counted this share too high (one send at most): arrivals jitter against send times. */
const RAISED_JITTER = 0.1;
/** A limit lowered by refusals under it keeps at least this share of the one before (smoothing: one event halves it at most). */
const LOWEST_CUT = 0.5;
/** Sends are remembered this long: an event's window ends at most EVENT_MS ago, and the refusals' period. */
const KEEP_MS = Math.max(EVENT_MS + WINDOW_MS, DENSE_PERIOD_MS);
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
  /** The least the ceiling of the current event may be counted at (half the one before, when it was lowered from under it). */
  floor?: number;
  /** The ceiling is the first one measured, while other processes were not pacing yet. */
  provisional?: boolean;
  /** The ceiling was raised (the server accepted more): the pace doubles from it until a 429 at the limit. */
  raised?: boolean;
  /** Processes using the budget (their ids) and when each last did. */
  members?: Record<string, number>;
  /** The earliest time the next paced request may start. */
  nextSlot: number;
  /** No request starts before this (a long Retry-After, or a quota header saying none is left). */
  holdUntil: number;
  /** Send times (ms since the epoch) of requests not known to be refused, the last KEEP_MS, ascending. */
  sent: number[];
  /** Send times of requests refused with 429, the last KEEP_MS. */
  refused?: number[];
  /** Send times of requests answered (not 429), the last KEEP_MS, ascending: what the server is known to have accepted. */
  accepted?: number[];
}

export function emptyBudget(now: number): BudgetState {
  return { version: 1, since: now, nextSlot: now, holdUntil: 0, sent: [] };
}

/** Requests per second to pace at, or undefined while no limit is known (and none is set). */
export function paceOf(state: BudgetState, now: number, maxRate?: number): number | undefined {
  let rate: number | undefined;
  if (state.ceiling !== undefined) {
    const seconds = Math.max(0, now - state.since) / 1000;
    rate = state.raised
      ? state.ceiling * 2 ** (seconds / SLOW_START_DOUBLING_SECONDS)
      : state.provisional && sharers(state, now) > 1
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
  addTimes(state.sent, times);
}

/** Adds the send times of requests the server answered (not 429). */
export function addAccepted(state: BudgetState, times: readonly number[]): void {
  if (times.length) addTimes((state.accepted ??= []), times);
}

/** Adds times to an ascending list, keeping it ascending. */
function addTimes(list: number[], times: readonly number[]): void {
  if (times.length === 0) return;
  const last = list.at(-1) ?? -Infinity;
  list.push(...times);
  if (times[0]! < last || !isAscending(times)) list.sort((a, b) => a - b);
}

/** Drops send times no measurement will need, and a limit measured too long ago. */
export function forgetOld(state: BudgetState, now: number): void {
  const keepFrom = now - KEEP_MS;
  let drop = 0;
  while (drop < state.sent.length && state.sent[drop]! < keepFrom) drop++;
  if (drop) state.sent.splice(0, drop);
  if (state.refused?.some((t) => t < keepFrom)) state.refused = state.refused.filter((t) => t >= keepFrom);
  if (state.accepted?.some((t) => t < keepFrom)) state.accepted = state.accepted.filter((t) => t >= keepFrom);
  if (state.ceiling !== undefined && now - state.since > FORGET_MS) {
    delete state.ceiling;
    delete state.event;
    delete state.provisional;
    delete state.raised;
    delete state.floor;
  }
}

/** Unused send times given back (a process dropping the slots it reserved and did not use). */
export function giveBack(state: BudgetState, slots: readonly number[]): void {
  for (const slot of slots) removeOne(state.sent, slot);
}

/**
 * A 429 for the request sent at `slot`, and what it said. A request sent after the last drop
 * (not in its millisecond) starts a new congestion event: the ceiling is what the budget sent
 * in the window before it, and the climb restarts. A request sent before it belongs to the
 * same event: the ceiling is counted again for that window, now knowing one more refused
 * request (the one reduction per event of TCP: a burst of 429s is one signal). A request sent
 * well under the known limit is not a limit met, unless such refusals come densely (then the
 * limit is lowered, by half at most); one sent over it, when more sends over it were accepted
 * than refused lately, raises it. A Retry-After longer than a window holds everyone.
 */
export function refuse(state: BudgetState, slot: number, now: number, retryAfterMs?: number): Refusal {
  removeOne(state.sent, slot);
  (state.refused ??= []).push(slot);
  if (retryAfterMs !== undefined && retryAfterMs > HOLD_ALL_AFTER_MS) state.holdUntil = Math.max(state.holdUntil, now + retryAfterMs);
  const sameEvent = state.event !== undefined && state.ceiling !== undefined && slot <= state.since && now - state.since < EVENT_MS;
  if (!sameEvent) {
    const known = state.ceiling;
    // A raised limit was counted from send times, and the server counts arrivals, which jitter: one send
    // more in a window than it took. While the pace doubles from it, a 429 with that one send fewer is the
    // limit met (taken as sporadic, it let the pace double into the real limit: 15 refused in two seconds).
    // Not at a few a second, where one send is much of the limit (a 429 with 1 of 2 is no measure of it).
    const jitter = state.raised ? Math.min(1, RAISED_JITTER * (known ?? 0)) : 0;
    const underLimit = known !== undefined && sentInWindow(state.sent, slot) < AT_LIMIT * known - jitter;
    const dense = known !== undefined && refusalsDense(state, now);
    if (underLimit && !dense) return 'sporadic';
    if (known !== undefined && !underLimit && !dense) {
      // Sent over the known limit: a limit met if the other sends over it lately were refused too (the probe's
      // first one is); if more of them were accepted, the limit is higher than known.
      const over = overLimitOutcomes(state, known, now - DENSE_PERIOD_MS, slot);
      if (over.accepted > over.refused && over.most > known) {
        state.ceiling = over.most;
        state.since = now;
        state.raised = true;
        delete state.event;
        delete state.floor;
        return 'raised';
      }
    }
    delete state.raised;
    state.provisional = state.ceiling === undefined;
    state.ceiling = MIN_RATE; // counted below
    state.event = slot;
    state.since = now;
    state.nextSlot = Math.max(state.nextSlot, now);
    state.retryAfterMs = retryAfterMs;
    if (underLimit) state.floor = known * LOWEST_CUT;
    else delete state.floor;
    // Refused with nothing accepted in the window before: no rate was measured, only a guess from
    // Retry-After, so the pace probes up from it (a quota that is really spent soon refuses again).
    if (sentInWindow(state.sent, slot) === 0) state.raised = true;
  }
  recount(state, now);
  return 'limit';
}

/** What a 429 said: a limit met (the pace dropped), a sporadic refusal (kept), or a limit higher than known (raised). */
export type Refusal = 'limit' | 'sporadic' | 'raised';

/**
 * The sends from `from` to before `slot` that went over the known limit (the window before
 * them already held AT_LIMIT of `ceiling`): how many were answered and refused, and the most
 * the server is known to have accepted in a window. Only answered sends count as accepted: a
 * send still in flight (another process's 429 to it not in yet) proves nothing, and counting
 * it made raise upon raise overshoot a limit.
 */
function overLimitOutcomes(state: BudgetState, ceiling: number, from: number, slot: number): { accepted: number; refused: number; most: number } {
  const over = AT_LIMIT * ceiling;
  const answered = (state.accepted ?? []).filter((time) => time >= from && time < slot);
  let accepted = 0;
  let most = ceiling;
  for (let i = 0, first = 0; i < answered.length; i++) {
    const time = answered[i]!;
    while (answered[first]! <= time - WINDOW_MS) first++;
    if (sentInWindow(state.sent, time - 1e-6) >= over) {
      accepted++;
      most = Math.max(most, ((i - first + 1) * 1000) / WINDOW_MS);
    }
  }
  const refused = (state.refused ?? []).filter((time) => time >= from && time < slot && sentInWindow(state.sent, time - 1e-6) >= over).length;
  return { accepted, refused, most };
}

/**
 * Whether the refusals of the last DENSE_PERIOD_MS are too many to be sporadic. Only those
 * since the limit was last measured count: the burst that measured it (four processes meeting
 * a limit of 2 together) is no evidence of a lower one, and taken as such it halved the limit
 * at the next 429 and held four processes at 1 request per second for 40 s.
 */
function refusalsDense(state: BudgetState, now: number): boolean {
  const from = Math.max(now - DENSE_PERIOD_MS, state.since);
  const refused = (state.refused ?? []).filter((t) => t > from && t <= now).length;
  const sent = state.sent.filter((t) => t > from && t <= now).length;
  return refused >= DENSE_COUNT && refused >= DENSE_SHARE * (refused + sent);
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
  const before = state.ceiling;
  state.ceiling = Math.max(MIN_RATE, state.floor ?? 0, measured > 0 ? measured : fallback);
  // Counted higher: the slots reserved at the lower pace run far ahead; the next reservation need not wait for them.
  if (state.ceiling > before) state.nextSlot = Math.min(state.nextSlot, now);
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
  if (finite(v.floor)) state.floor = v.floor;
  if (Array.isArray(v.refused) && v.refused.every(finite)) state.refused = [...v.refused];
  if (Array.isArray(v.accepted) && v.accepted.every(finite)) state.accepted = [...v.accepted].sort((a, b) => a - b);
  if (v.provisional === true) state.provisional = true;
  if (v.raised === true) state.raised = true;
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
