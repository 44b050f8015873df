// The one hook on ride status changes: every change of a ride's status, whatever moved it
// (the simulated clock, a cancel, PUT /v1.2/sandbox/requests/{id}), goes through
// RideEvents.emit. Webhook deliveries (spec 6: requests.status_changed on every change,
// requests.receipt_ready once completed) subscribe with `onRideStatusChange` and need no
// change to the trip logic.
import type { RideRequest, RideStatus } from '../../schemas/rider.js';

export interface RideStatusChange {
  /** The ride as GET /v1.2/requests/{id} shows it after the change. */
  ride: RideRequest;
  status: RideStatus;
  previous: RideStatus | undefined;
  /** Who requested it and through which application (for webhook routing). */
  userId: string;
  clientId: string;
  /** Milliseconds since the epoch (sandbox clock) when the change happened. */
  at: number;
}

export type RideStatusListener = (change: RideStatusChange) => void;

export class RideEvents {
  readonly #listeners = new Set<RideStatusListener>();

  /** Subscribes; returns the function that unsubscribes. */
  onRideStatusChange(listener: RideStatusListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(change: RideStatusChange): void {
    // A failing listener must not break the trip it reports on.
    for (const listener of this.#listeners) {
      try {
        listener(change);
      } catch {
        // ignored: listeners report their own failures
      }
    }
  }
}
