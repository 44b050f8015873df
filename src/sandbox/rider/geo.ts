// Great-circle distance and the sandbox's trip duration model.

export interface Point {
  latitude: number;
  longitude: number;
}

const EARTH_RADIUS_MILES = 3958.8;
export const KM_PER_MILE = 1.609344;

/** Haversine distance in miles. */
export function milesBetween(a: Point, b: Point): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLng = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/**
 * Driving time for a trip: roads are longer than the great circle (x1.3), driven at the
 * city's average speed, plus two minutes of getting in and out. Strictly increasing in
 * distance, so a longer trip never takes (or costs) less.
 */
export function tripSeconds(miles: number, averageMph: number): number {
  return Math.round(120 + ((miles * 1.3) / averageMph) * 3600);
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
