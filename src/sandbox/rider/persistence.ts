// The rider API's state in the --state file: rides (with the product by id), fares, surge
// confirmations, applied promotions, product overrides and saved places. Rides restored from a file move
// on from their saved status along the clock, like any other ride.
import type { AppliedPromotion, PlaceId } from '../../schemas/rider.js';
import type { SavedPlace } from './places.js';
import type { Confirmation, Fare, RiderState } from './state.js';
import type { Ride, Trips } from './trips.js';

type SavedRide = Omit<Ride, 'product'> & { product_id: string };

export interface RiderData {
  rides: SavedRide[];
  fares: Fare[];
  confirmations: Confirmation[];
  promotions: Array<[string, AppliedPromotion[]]>;
  overrides: Array<[string, { surge?: number; drivers?: boolean }]>;
  /** Absent in files saved before places existed. */
  places?: Array<[string, Partial<Record<PlaceId, SavedPlace>>]>;
}

/**
 * A copy of the rider state (rides brought up to the clock). Every record is copied, because
 * the rider routes change fares, overrides and promotion lists in place: a snapshot must not
 * see later writes.
 */
export function snapshotRider(state: RiderState, trips: Trips): RiderData {
  return {
    rides: trips.all().map(({ product, ...ride }) => ({ ...ride, product_id: product.product.product_id })),
    fares: [...state.fares.values()].map((fare) => ({ ...fare })),
    confirmations: [...state.confirmations.values()].map((c) => ({ ...c })),
    promotions: [...state.promotions].map(([user, list]) => [user, [...list]]),
    overrides: [...state.overrides].map(([product, override]) => [product, { ...override }]),
    places: [...state.places].map(([user, places]) => [user, { ...places }]),
  };
}

/** Loads saved data into empty state, copying it (a snapshot restored twice stays as it was). */
export function restoreRider(data: RiderData, state: RiderState, trips: Trips): void {
  const copy = snapshotCopy(data);
  for (const fare of copy.fares) state.fares.set(fare.fare_id, fare);
  for (const c of copy.confirmations) state.confirmations.set(c.surge_confirmation_id, c);
  for (const [user, list] of copy.promotions) state.promotions.set(user, list);
  for (const [product, override] of copy.overrides) state.overrides.set(product, override);
  for (const [user, places] of copy.places ?? []) state.places.set(user, places);
  for (const { product_id, ...saved } of copy.rides) {
    const product = state.catalog.product(product_id);
    if (product) trips.restore({ ...saved, product });
  }
}

function snapshotCopy(data: RiderData): RiderData {
  return {
    rides: data.rides,
    fares: data.fares.map((fare) => ({ ...fare })),
    confirmations: data.confirmations.map((c) => ({ ...c })),
    promotions: data.promotions.map(([user, list]) => [user, [...list]]),
    overrides: data.overrides.map(([product, override]) => [product, { ...override }]),
    places: data.places?.map(([user, places]) => [user, { ...places }]),
  };
}
