// Mutable rider state of one sandbox: product overrides (surge, drivers), issued fares and
// surge confirmations, applied promotions, saved places. Saved in --state files by persistence.ts.
import { randomBytes } from 'node:crypto';
import type { AppliedPromotion, PlaceId } from '../../schemas/rider.js';
import { Catalog, type CatalogProduct } from './catalog.js';
import type { Point } from './geo.js';
import type { SavedPlace } from './places.js';

/** How long a fare (upfront price) and a surge confirmation stay valid. */
export const FARE_LIFETIME_MS = 2 * 60 * 1000;

export interface Fare {
  fare_id: string;
  product_id: string;
  user_id: string;
  start: Point;
  end: Point | undefined;
  seat_count: number;
  surge: number;
  /** Milliseconds since the epoch. */
  expires_at: number;
}

export interface Confirmation {
  surge_confirmation_id: string;
  product_id: string;
  user_id: string;
  multiplier: number;
  expires_at: number;
}

/** Promotion codes the sandbox knows. */
export const PROMOTIONS: Readonly<Record<string, string>> = {
  FREERIDE: 'Free ride up to $20',
  WELCOME10: '$10 off your next 3 rides',
};

export function newId(prefix: string): string {
  return `${prefix}${randomBytes(12).toString('hex')}`;
}

export class RiderState {
  readonly catalog = new Catalog();
  readonly overrides = new Map<string, { surge?: number; drivers?: boolean }>();
  readonly fares = new Map<string, Fare>();
  readonly confirmations = new Map<string, Confirmation>();
  readonly promotions = new Map<string, AppliedPromotion[]>();
  /** Saved places per user (home, work). */
  readonly places = new Map<string, Partial<Record<PlaceId, SavedPlace>>>();

  /** The product's surge at a point: a PUT override, else the seeded zones (taxis never surge). */
  surge(p: CatalogProduct, at: Point): number {
    const override = this.overrides.get(p.product.product_id)?.surge;
    if (override !== undefined) return override;
    if (p.product.product_group === 'taxi') return 1;
    return this.catalog.zoneMultiplier(p.city, at);
  }

  drivers(p: CatalogProduct): boolean {
    return this.overrides.get(p.product.product_id)?.drivers ?? p.drivers;
  }

  /** Expires every fare and surge confirmation now (tests of fare_expired). */
  expireAll(now: number): void {
    for (const fare of this.fares.values()) fare.expires_at = Math.min(fare.expires_at, now);
    for (const c of this.confirmations.values()) c.expires_at = Math.min(c.expires_at, now);
  }
}
