// The delivery rules a receiver applies (spec 6.3.1): events may come more than once and in
// any order; they are unique per (event_type, resource id, status); duplicates are ignored;
// with out-of-order statuses the latest is kept. "Latest" follows the ride's life
// (processing, accepted, arriving, in_progress, then a final status); statuses it does not
// know are ordered by event_time.
import type { EventFields } from './events.js';

const RANK: Readonly<Record<string, number>> = {
  processing: 0,
  accepted: 1,
  arriving: 2,
  in_progress: 3,
  completed: 4,
  rider_canceled: 4,
  driver_canceled: 4,
  no_drivers_available: 4,
  ready: 5,
};

export interface Observation {
  /** Seen before with the same event_type, resource id and status: ignore it. */
  duplicate: boolean;
  /** Older than the latest status already seen for this resource: keep the latest. */
  outOfOrder: boolean;
  /** The status kept for the resource after this event. */
  latest: string | undefined;
}

interface Latest {
  status: string;
  time: number | undefined;
}

export class EventLedger {
  readonly #seen = new Set<string>();
  readonly #latest = new Map<string, Latest>();

  observe(event: EventFields): Observation {
    const type = event.event_type ?? '';
    const resource = event.resource_id ?? '';
    const status = event.status ?? '';
    const key = `${type}\n${resource}\n${status}`;
    const slot = `${type}\n${resource}`;
    const current = this.#latest.get(slot);
    if (this.#seen.has(key)) return { duplicate: true, outOfOrder: false, latest: current?.status };
    this.#seen.add(key);
    if (current && isOlder({ status, time: event.event_time }, current)) {
      return { duplicate: false, outOfOrder: true, latest: current.status };
    }
    this.#latest.set(slot, { status, time: event.event_time });
    return { duplicate: false, outOfOrder: false, latest: status };
  }

  /** The status kept per (event_type, resource id). */
  latest(): Array<{ event_type: string; resource_id: string; status: string }> {
    return [...this.#latest].map(([slot, l]) => {
      const [event_type, resource_id] = slot.split('\n') as [string, string];
      return { event_type, resource_id, status: l.status };
    });
  }
}

function isOlder(next: Latest, current: Latest): boolean {
  const a = RANK[next.status];
  const b = RANK[current.status];
  if (a !== undefined && b !== undefined && a !== b) return a < b;
  if (next.time !== undefined && current.time !== undefined) return next.time < current.time;
  return false;
}
