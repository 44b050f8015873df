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

export function snapshotRider(state: RiderState, trips: Trips): RiderData {
  return {
    rides: trips.all().map(({ product, ...ride }) => ({ ...ride, product_id: product.product.product_id })),
    fares: [...state.fares.values()],
    confirmations: [...state.confirmations.values()],
    promotions: [...state.promotions],
    overrides: [...state.overrides],
    places: [...state.places],
  };
}

export function restoreRider(data: RiderData, state: RiderState, trips: Trips): void {
  for (const fare of data.fares) state.fares.set(fare.fare_id, fare);
  for (const c of data.confirmations) state.confirmations.set(c.surge_confirmation_id, c);
  for (const [user, list] of data.promotions) state.promotions.set(user, list);
  for (const [product, override] of data.overrides) state.overrides.set(product, override);
  for (const [user, places] of data.places ?? []) state.places.set(user, places);
  for (const { product_id, ...saved } of data.rides) {
    const product = state.catalog.product(product_id);
    if (product) trips.restore({ ...saved, product });
  }
}
