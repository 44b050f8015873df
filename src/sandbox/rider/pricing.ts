// Price estimates from great-circle distance, the duration model and a product's rates
// (spec 2.8). Every amount grows with distance and time and is multiplied by the surge,
// so a longer trip never costs less and surge raises an estimate by its multiplier.
import { formatMoney } from '../../schemas/money.js';
import type { PriceEstimate } from '../../schemas/rider.js';
import type { CatalogProduct, Lang } from './catalog.js';
import { KM_PER_MILE, round, tripSeconds } from './geo.js';

export interface Trip {
  miles: number;
  seconds: number;
}

export function tripOf(p: CatalogProduct, miles: number): Trip {
  return { miles, seconds: tripSeconds(miles, p.city.averageMph) };
}

/** Distance in the product's unit (mile or km). */
export function inUnit(p: CatalogProduct, miles: number): number {
  return p.rates.distance_unit === 'km' ? miles * KM_PER_MILE : miles;
}

export interface FareParts {
  base: number;
  time: number;
  distance: number;
  fees: number;
  /** Raised to the product's minimum fare when below it. */
  beforeSurge: number;
}

export function fareParts(p: CatalogProduct, trip: Trip): FareParts {
  const r = p.rates;
  const time = r.cost_per_minute * (trip.seconds / 60);
  const distance = r.cost_per_distance * inUnit(p, trip.miles);
  const fees = r.service_fees.reduce((sum, f) => sum + f.fee, 0);
  const beforeSurge = Math.max(r.minimum, r.base + time + distance + fees);
  return { base: r.base, time, distance, fees, beforeSurge };
}

/** The exact upfront fare (cents), surge included. */
export function upfrontFare(p: CatalogProduct, trip: Trip, surge: number): number {
  return round(fareParts(p, trip).beforeSurge * surge, 2);
}

/** low..high around the fare: the range a metered-by-rates fare falls in. */
export function fareRange(p: CatalogProduct, trip: Trip, surge: number): { low: number; high: number } {
  const fare = fareParts(p, trip).beforeSurge * surge;
  return { low: Math.floor(fare), high: Math.ceil(fare * 1.2) };
}

/**
 * One price item: a range ("$12-15") for products with price details, a single number for
 * upfront shared rides, "Metered" for taxis (no currency, no low/high).
 */
export function priceEstimate(p: CatalogProduct, trip: Trip, surge: number, lang: Lang): PriceEstimate {
  const currency = p.rates.currency_code;
  const common = {
    product_id: p.product.product_id,
    display_name: p.text.en.display_name,
    localized_display_name: p.text[lang].display_name,
    minimum: Math.round(p.rates.minimum),
    surge_multiplier: surge,
    duration: trip.seconds,
    distance: round(trip.miles, 2),
  };
  if (p.product.product_group === 'taxi') {
    return { ...common, currency_code: null, estimate: 'Metered', low_estimate: null, high_estimate: null };
  }
  if (p.product.shared) {
    const fare = Math.round(upfrontFare(p, trip, surge));
    return { ...common, currency_code: currency, estimate: formatMoney(fare, currency, 0), low_estimate: fare, high_estimate: fare };
  }
  const { low, high } = fareRange(p, trip, surge);
  const estimate = low === high ? formatMoney(low, currency, 0) : `${formatMoney(low, currency, 0)}-${high}`;
  return { ...common, currency_code: currency, estimate, low_estimate: low, high_estimate: high };
}
