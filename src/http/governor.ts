// The quota governor: paces the requests of one profile to one host from what the server
// says (429s, Retry-After, quota headers), so that a bulk run's batches in flight stop
// colliding with a rate limit. The HTTP core calls acquire() before each attempt and
// observe() after it (every ticket is observed: with status 0 when no answer came). Until a
// server refuses a request nothing is paced (a server without a limit costs nothing, as in
// AWS's adaptive retry mode), except that a process's first requests go out as answers come
// back (TCP's slow start): a limit is met by one request, not by every batch in flight at
// once. The rules of the pace are in governor-state.ts, the shared budget in
// governor-file.ts. All timing is the injected clock.
import type { Clock } from '../base/io.js';
import { MemoryBudget, type BudgetStore } from './governor-file.js';
import { addAccepted, addSends, forgetOld, giveBack, holdUntil, paceOf, recount, refuse, reserve, type BudgetState, type Refusal } from './governor-state.js';
import { sharers } from './governor-state.js';
import { parseRetryAfter } from './retry.js';

/** A request's place in the budget: when it was allowed to start. */
export interface Ticket {
  slot: number;
}

export interface GovernorOptions {
  clock: Clock;
  /** Where the budget lives (default: this process's memory). */
  store?: BudgetStore;
  /** --debug trace. */
  trace?: (line: string) => void;
}

/**
 * How often a process reads a shared budget it is not pacing by (another process may have met a limit),
 * and a request waiting for its slot reads it (another process may have changed the pace).
 */
const LOOK_EVERY_MS = 250;
/** A shared budget is reserved in chunks of about this much time, so the lock is taken a few times a second. */
const CHUNK_MS = 250;
/** The longest a request waits for a hold (a Retry-After of hours is the server's to say, in its error). */
const LONGEST_HOLD_MS = 60_000;
/**
 * Slow start: until this many of its requests have been answered (not refused), an unpaced
 * process sends its first requests one at a time, then one more in flight per answer.
 */
const START_ANSWERS = 8;
/** Answers before a second request may be in flight (a limit of 2 per second is met by the third request alone). */
const START_ALONE = 2;
/** A request held by the slow start goes after this long even if no answer came (one that is never observed). */
export const START_WAIT_MS = 2000;

export class Governor {
  readonly #clock: Clock;
  #store: BudgetStore;
  readonly #trace?: (line: string) => void;
  #maxRate: number | undefined;
  /** The budget as last synced. */
  #state: BudgetState;
  /** Slots reserved from a shared budget and not used yet. */
  #reserved: number[] = [];
  /** Unpaced sends not yet added to the shared budget (a measurement needs every process's sends). */
  #unsynced: number[] = [];
  /** Send times of this process's requests answered (not 429) since the last sync. */
  #answeredSlots: number[] = [];
  #lastLook = -Infinity;
  #syncing: Promise<void> | undefined;
  #requests = 0;
  #refused = 0;
  /** Requests given a turn and not observed yet, and requests answered (not 429), for the slow start. */
  #inFlight = 0;
  #answered = 0;
  /** 429s being recorded in the budget (their sync under way). */
  #recording = 0;
  /** Requests held by the slow start, woken by the next answer. */
  readonly #waiting = new Set<() => void>();

  constructor(options: GovernorOptions) {
    this.#clock = options.clock;
    this.#store = options.store ?? new MemoryBudget(options.clock.now());
    this.#trace = options.trace;
    this.#state = { version: 1, since: options.clock.now(), nextSlot: 0, holdUntil: 0, sent: [] };
  }

  /** --max-rate: never more than `rate` requests per second from this process. */
  limit(rate: number): void {
    this.#maxRate = rate;
  }

  /** The pace in requests per second, or undefined while unpaced. */
  pace(): number | undefined {
    return paceOf(this.#state, this.#clock.now(), this.#maxRate);
  }

  /** The processes using this budget lately, this one included (at least 1): a shared pace is theirs together (progress). */
  processes(): number {
    return Math.max(1, sharers(this.#state, this.#clock.now()));
  }

  /** Requests sent and refused with 429 so far (progress and --debug). */
  counts(): { requests: number; refused: number } {
    return { requests: this.#requests, refused: this.#refused };
  }

  /** Waits for this request's turn; resolves with its ticket. */
  async acquire(signal?: AbortSignal): Promise<Ticket> {
    this.#requests++;
    return { slot: await this.#turn(signal) };
  }

  async #turn(signal?: AbortSignal): Promise<number> {
    let waitedLong = false;
    for (;;) {
      const now = this.#clock.now();
      if (this.#store.shared && this.pace() === undefined && now - this.#lastLook >= LOOK_EVERY_MS) {
        this.#lastLook = now;
        if (this.#store.changedElsewhere()) await this.#sync(() => {});
      }
      const rate = this.pace();
      const held = this.#state.holdUntil > now;
      if (rate === undefined && !held) {
        // A 429 being recorded may set a pace: the next request waits for it.
        const starting = this.#answered < START_ANSWERS && this.#inFlight >= Math.max(1, this.#answered - START_ALONE + 1);
        if (!waitedLong && (starting || this.#recording > 0)) {
          waitedLong = !(await this.#nextAnswer(signal));
          continue;
        }
        // Unpaced: go now, and remember the send for a measurement if a 429 comes.
        this.#inFlight++;
        if (this.#store.shared) this.#unsynced.push(now);
        else {
          await this.#store.update((state) => {
            addSends(state, [now]);
            forgetOld(state, now);
          });
        }
        return now;
      }
      const slot = this.#nextReserved(now, rate);
      if (slot === undefined) {
        // One reservation at a time: the others in flight take from what it brings.
        if (this.#syncing) await this.#syncing;
        else {
          await this.#sync((state) => {
            // At the budget's pace as read now: another process may have counted the limit again since this
            // one last looked (slots taken at a first low count of 1 a second held four processes for seconds).
            const at = this.#clock.now();
            const pace = paceOf(state, at, this.#maxRate);
            const count = this.#store.shared && pace !== undefined ? Math.max(1, Math.floor((pace * CHUNK_MS) / 1000)) : 1;
            this.#reserved.push(...reserve(state, at, pace, count));
          });
        }
        continue;
      }
      const epoch = this.#state.since;
      const ceiling = this.#state.ceiling;
      const until = now + Math.min(slot - now, LONGEST_HOLD_MS);
      const moved = () => this.#state.since !== epoch || this.#state.ceiling !== ceiling;
      let waited = false;
      while (this.#clock.now() < until && !moved()) {
        waited = true;
        await this.#clock.sleep(Math.min(until - this.#clock.now(), LOOK_EVERY_MS), signal);
        if (this.#store.shared && !this.#syncing && this.#store.changedElsewhere()) await this.#sync(() => {});
      }
      // A 429 came while this one waited, or the limit was counted again: its slot was given at the old pace, so
      // it takes a new one. So does one woken later than the next slot (a stalled event loop): the late ones
      // would reach the server together.
      const late = rate !== undefined && waited && this.#clock.now() - slot > 1000 / rate;
      if (moved() || late) {
        await this.#sync((state) => giveBack(state, [slot]));
        continue;
      }
      this.#inFlight++;
      return slot;
    }
  }

  #wake(): void {
    for (const wake of this.#waiting) wake();
  }

  /** Waits for the next answer to one of this process's requests; false when none came in START_WAIT_MS. */
  async #nextAnswer(signal?: AbortSignal): Promise<boolean> {
    const timer = new AbortController();
    const stop = () => timer.abort();
    signal?.addEventListener('abort', stop, { once: true });
    let wake!: () => void;
    const answered = new Promise<void>((resolve) => (wake = resolve));
    this.#waiting.add(wake);
    const came = await Promise.race([
      answered.then(() => true),
      this.#clock.sleep(START_WAIT_MS, timer.signal).then(
        () => false,
        () => false,
      ),
    ]).finally(() => {
      this.#waiting.delete(wake);
      signal?.removeEventListener('abort', stop);
      timer.abort();
    });
    if (signal?.aborted) throw signal.reason;
    return came;
  }

  /** What the server said about the request of `ticket`: its status, or 0 when no answer came. */
  async observe(ticket: Ticket, status: number, headers: Record<string, string | undefined> = {}): Promise<void> {
    this.#inFlight = Math.max(0, this.#inFlight - 1);
    if (status !== 0 && status !== 429) {
      this.#answered++;
      this.#answeredSlots.push(ticket.slot);
    }
    const now = this.#clock.now();
    const until = quotaResetOf(headers, now);
    if (status !== 429 && until === undefined) return this.#wake();
    if (status === 429) this.#refused++;
    const retryAfter = status === 429 ? parseRetryAfter(headers['retry-after'], now) : undefined;
    const before = this.pace();
    let refusal: Refusal | undefined;
    if (status === 429) this.#recording++;
    try {
      await this.#sync((state) => {
        if (status === 429) refusal = refuse(state, ticket.slot, now, retryAfter);
        // The slots reserved at the old pace go back: the next request reserves at the new one.
        if (refusal === 'limit') giveBack(state, this.#reserved.splice(0));
        if (until !== undefined) holdUntil(state, until);
      });
    } finally {
      if (status === 429) this.#recording--;
    }
    // Those held by the slow start go once the pace knows of this answer.
    this.#wake();
    const after = this.pace();
    if (refusal === 'limit') this.#trace?.(`* 429: pacing at ${formatRate(after)} requests/s (was ${formatRate(before)})`);
    else if (refusal === 'raised')
      this.#trace?.(`* 429 after more than the measured limit was accepted: the limit is higher, pacing from ${formatRate(after)} requests/s up`);
    else if (refusal === 'sporadic')
      this.#trace?.(`* 429 well under the measured limit, among successes: not a limit, the pace stays ${formatRate(after)} requests/s`);
  }

  /** The next reserved slot that is still usable: one far in the past would make a burst, so it is dropped. */
  #nextReserved(now: number, rate: number | undefined): number | undefined {
    const late = rate === undefined ? 0 : 1000 / rate;
    while (this.#reserved.length) {
      const slot = this.#reserved.shift()!;
      if (slot >= now - late) return slot;
    }
    return undefined;
  }

  /** Brings this process's view and the budget together (one at a time; a failing file leaves the budget in memory). */
  async #sync(change: (state: BudgetState) => void): Promise<void> {
    while (this.#syncing) await this.#syncing;
    const run = async () => {
      const unsynced = this.#unsynced.splice(0);
      const answered = this.#answeredSlots.splice(0);
      const apply = (state: BudgetState) => {
        const now = this.#clock.now();
        addSends(state, unsynced);
        addAccepted(state, answered);
        forgetOld(state, now);
        if (unsynced.length) recount(state, now);
        change(state);
      };
      try {
        this.#state = await this.#store.update(apply);
      } catch (error) {
        this.#trace?.(`* the shared request budget could not be used (${(error as Error).message}); pacing this process alone`);
        this.#store = new MemoryBudget(this.#clock.now());
        this.#state = await this.#store.update(apply);
      }
    };
    this.#syncing = run().finally(() => (this.#syncing = undefined));
    await this.#syncing;
  }
}

/** When a quota header says nothing is left: RateLimit-Remaining / X-RateLimit-Remaining 0 with a reset. */
export function quotaResetOf(headers: Record<string, string | undefined>, now: number): number | undefined {
  const remaining = headers['ratelimit-remaining'] ?? headers['x-ratelimit-remaining'];
  const reset = headers['ratelimit-reset'] ?? headers['x-ratelimit-reset'];
  if (remaining === undefined || reset === undefined || Number(remaining) > 0 || !/^\d+(\.\d+)?$/.test(reset.trim())) return undefined;
  const value = Number(reset);
  // Seconds from now (the IETF draft, GitHub's delta form), or a Unix time (GitHub, Twitter).
  return value > 1e9 ? value * 1000 : now + value * 1000;
}

function formatRate(rate: number | undefined): string {
  return rate === undefined ? 'unpaced' : rate.toFixed(rate < 10 ? 1 : 0);
}
