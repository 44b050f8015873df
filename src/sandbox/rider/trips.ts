// Rides on a simulated clock: processing -> accepted -> arriving -> in_progress ->
// completed (or no_drivers_available when no driver is near). The status is derived
// lazily from the clock whenever a ride is read; one timer per ride fires only at its
// next change, so status events go out even when nobody reads. --time-scale N makes the
// simulated time run N times faster than the wall clock.
import { FINAL_STATUSES, type Receipt, type RideRequest, type RideStatus } from '../../schemas/rider.js';
import type { CatalogProduct } from './catalog.js';
import type { RideEvents } from './events.js';
import { round, type Point } from './geo.js';
import { fareParts, inUnit, type Trip } from './pricing.js';
import { newId, type RiderState } from './state.js';

/** Simulated seconds the sandbox spends in each moving status. */
const PROCESSING_SECONDS = 5;
const ARRIVING_SECONDS = 60;

export interface Ride {
  request_id: string;
  user_id: string;
  client_id: string;
  product: CatalogProduct;
  status: RideStatus;
  /** Wall-clock ms when the current status began. */
  since: number;
  start: Point;
  end: Point | undefined;
  trip: Trip;
  surge: number;
  /** Upfront fare (surge included), or undefined for metered products. */
  fare: number | undefined;
  seat_count: number;
  /** Pickup ETA in minutes at request time. */
  eta: number;
  requested_at: number;
  started_at?: number;
  ended_at?: number;
  expense_code?: string;
  expense_memo?: string;
}

export class Trips {
  readonly #rides = new Map<string, Ride>();
  readonly #timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly state: RiderState,
    private readonly events: RideEvents,
    private readonly now: () => number,
    readonly timeScale: number,
  ) {}

  create(init: Omit<Ride, 'request_id' | 'status' | 'since' | 'requested_at'>): Ride {
    const now = this.now();
    const ride: Ride = { ...init, request_id: newId(''), status: 'processing', since: now, requested_at: now };
    this.#rides.set(ride.request_id, ride);
    this.#emit(ride, undefined, now);
    this.#schedule(ride);
    return ride;
  }

  /** The ride with its status brought up to the clock. */
  get(id: string): Ride | undefined {
    const ride = this.#rides.get(id);
    if (ride) this.#advance(ride);
    return ride;
  }

  /** The user's rides, newest first, each brought up to the clock. */
  ofUser(userId: string): Ride[] {
    const rides = [...this.#rides.values()].filter((r) => r.user_id === userId).reverse();
    for (const ride of rides) this.#advance(ride);
    return rides;
  }

  current(userId: string): Ride | undefined {
    return this.ofUser(userId).find((r) => !FINAL_STATUSES.includes(r.status));
  }

  /** Sets a status now (a cancel, or PUT /v1.2/sandbox/requests/{id}); the clock moves on from it. */
  set(ride: Ride, status: RideStatus): void {
    this.#advance(ride);
    if (ride.status === status) return;
    this.#change(ride, status, this.now());
    this.#schedule(ride);
  }

  /** A new destination: the trip (and an upfront fare) follow it; a ride in progress now runs to the new end. */
  redirect(ride: Ride, end: Point, trip: Trip, fare: number | undefined): void {
    this.#advance(ride);
    Object.assign(ride, { end, trip, fare });
    this.#schedule(ride);
  }

  /** Every ride, brought up to the clock (for saving). */
  all(): Ride[] {
    for (const ride of this.#rides.values()) this.#advance(ride);
    return [...this.#rides.values()];
  }

  /** Puts back a ride saved in a state file; it moves on from its saved status. */
  restore(ride: Ride): void {
    this.#rides.set(ride.request_id, ride);
    this.#schedule(ride);
  }

  close(): void {
    for (const timer of this.#timers.values()) clearTimeout(timer);
    this.#timers.clear();
  }

  /** Forgets every ride (a snapshot restore or reset loads others). */
  clear(): void {
    this.close();
    this.#rides.clear();
  }

  /** Simulated seconds the ride stays in its current status; undefined when it waits for nobody. */
  #duration(ride: Ride): number | undefined {
    switch (ride.status) {
      case 'processing':
        return PROCESSING_SECONDS;
      case 'accepted':
        return Math.max(30, ride.eta * 60 - ARRIVING_SECONDS);
      case 'arriving':
        return ARRIVING_SECONDS;
      case 'in_progress':
        return ride.trip.seconds;
      default:
        return undefined;
    }
  }

  #next(ride: Ride): RideStatus {
    switch (ride.status) {
      case 'processing':
        return this.state.drivers(ride.product) ? 'accepted' : 'no_drivers_available';
      case 'accepted':
        return 'arriving';
      case 'arriving':
        return 'in_progress';
      default:
        return 'completed';
    }
  }

  #due(ride: Ride): number | undefined {
    const seconds = this.#duration(ride);
    return seconds === undefined ? undefined : ride.since + (seconds * 1000) / this.timeScale;
  }

  #advance(ride: Ride): void {
    const now = this.now();
    for (let due = this.#due(ride); due !== undefined && due <= now; due = this.#due(ride)) {
      this.#change(ride, this.#next(ride), due);
    }
  }

  #change(ride: Ride, status: RideStatus, at: number): void {
    const previous = ride.status;
    ride.status = status;
    ride.since = at;
    if (status === 'in_progress') ride.started_at = at;
    if (FINAL_STATUSES.includes(status)) ride.ended_at = at;
    this.#emit(ride, previous, at);
  }

  #emit(ride: Ride, previous: RideStatus | undefined, at: number): void {
    this.events.emit({ ride: rideResource(ride), status: ride.status, previous, userId: ride.user_id, clientId: ride.client_id, at });
  }

  #schedule(ride: Ride): void {
    clearTimeout(this.#timers.get(ride.request_id));
    this.#timers.delete(ride.request_id);
    const due = this.#due(ride);
    if (due === undefined) return;
    const timer = setTimeout(
      () => {
        this.#timers.delete(ride.request_id);
        this.#advance(ride);
        this.#schedule(ride);
      },
      Math.max(0, due - this.now()),
    );
    timer.unref();
    this.#timers.set(ride.request_id, timer);
  }
}

const withDriver = (s: RideStatus) => s === 'accepted' || s === 'arriving' || s === 'in_progress' || s === 'completed';

/** GET /v1.2/requests/{id}. The spec leaves vehicle, driver and location open; these are the sandbox's. */
export function rideResource(ride: Ride): RideRequest {
  const driver = withDriver(ride.status);
  const moving = ride.status === 'accepted' || ride.status === 'arriving' || ride.status === 'in_progress';
  return {
    request_id: ride.request_id,
    product_id: ride.product.product.product_id,
    status: ride.status,
    vehicle: driver ? { make: 'Toyota', model: 'Prius', license_plate: 'SANDBOX1' } : null,
    driver: driver ? { name: 'Sam Sandbox', phone_number: '+14155550199', rating: 4.9 } : null,
    location: moving ? { latitude: ride.start.latitude, longitude: ride.start.longitude, bearing: 90 } : null,
    eta: ride.status === 'processing' || ride.status === 'accepted' || ride.status === 'arriving' ? ride.eta : null,
    surge_multiplier: ride.surge,
  };
}

/** The receipt of a completed ride: the fare's parts, surge included. */
export function receiptOf(ride: Ride): Receipt {
  const p = ride.product;
  const parts = fareParts(p, ride.trip);
  const total = ride.fare ?? round(parts.beforeSurge * ride.surge, 2);
  const charges = [
    { name: 'Base Fare', amount: round(parts.base, 2), type: 'base_fare' },
    { name: 'Time', amount: round(parts.time, 2), type: 'time' },
    { name: 'Distance', amount: round(parts.distance, 2), type: 'distance' },
    ...p.rates.service_fees.map((f) => ({ name: f.name, amount: f.fee, type: 'service_fee' })),
  ];
  const surgeAmount = round(total - parts.beforeSurge, 2);
  const unit = p.rates.distance_unit;
  const distance = round(inUnit(p, ride.trip.miles), 2);
  return {
    request_id: ride.request_id,
    charges,
    surge_charge: ride.surge > 1 ? { name: 'Surge x' + ride.surge, amount: surgeAmount } : null,
    subtotal: total,
    total_charged: total,
    currency_code: p.rates.currency_code,
    duration: ride.trip.seconds,
    distance,
    distance_label: unit === 'km' ? 'kilometers' : 'miles',
    expense_code: ride.expense_code ?? null,
    expense_memo: ride.expense_memo ?? null,
  };
}
