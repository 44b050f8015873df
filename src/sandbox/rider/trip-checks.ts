// The checks a ride estimate and a ride request share (spec 4.4, 7.2), in the order the
// sandbox applies them.
import { MAX_SEATS } from '../../schemas/rider.js';
import type { CatalogProduct } from './catalog.js';
import { riderError, validationFailed } from './errors.js';
import { milesBetween, type Point } from './geo.js';
import { tooFar } from './catalog-routes.js';

/** Pickup and dropoff closer than this (about 30 m) are the same place. */
const SAME_PLACE_MILES = 0.02;
/** Shared rides go no farther than this. */
const SHARED_MAX_MILES = 25;

export interface TripInput {
  start: Point;
  end: Point | undefined;
  seat_count: number | undefined;
}

/** Validates the trip for the product; returns its great-circle miles (0 without an end). */
export function checkTrip(p: CatalogProduct, input: TripInput): number {
  // The API's default is the maximum (spec 8), within what the product takes.
  const seats = input.seat_count ?? Math.min(MAX_SEATS, p.product.capacity);
  if (seats > MAX_SEATS || seats > p.product.capacity) {
    throw riderError(
      422,
      'invalid_seat_count',
      `seat_count ${seats} exceeds what ${p.text.en.display_name} takes (at most ${Math.min(MAX_SEATS, p.product.capacity)}).`,
    );
  }
  if (p.product.shared && !input.end)
    throw riderError(422, 'destination_required', `${p.text.en.display_name} needs a destination (end_latitude, end_longitude).`);
  const { city } = p;
  if (milesBetween(city.center, input.start) > city.radiusMiles) {
    throw riderError(422, 'outside_service_area', `The pickup is outside the service area of ${p.text.en.display_name} (${city.name.en}).`);
  }
  if (!input.end) return 0;
  const miles = milesBetween(input.start, input.end);
  if (miles < SAME_PLACE_MILES) throw riderError(422, 'same_pickup_dropoff', 'The pickup and dropoff locations are the same.');
  if (miles > 100) tooFar(miles);
  if (milesBetween(city.center, input.end) > city.radiusMiles) {
    throw riderError(422, 'outside_service_area', `The destination is outside the service area of ${p.text.en.display_name} (${city.name.en}).`);
  }
  if (p.product.shared && miles > SHARED_MAX_MILES) {
    const message = `destination unsupported for ${p.text.en.display_name}: shared rides go at most ${SHARED_MAX_MILES} miles`;
    throw validationFailed({ end_latitude: [message], end_longitude: [message] }, 'The destination is not supported for the shared-ride product.');
  }
  return miles;
}
