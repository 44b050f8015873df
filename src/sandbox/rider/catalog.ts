// The seeded cities of the rider sandbox, their products (each city has its own product
// ids, spec 2.8) and surge zones. Plain data plus lookups; no state.
import { createHash } from 'node:crypto';
import type { PriceDetails, Product } from '../../schemas/rider.js';
import { milesBetween, type Point } from './geo.js';

export type Lang = 'en' | 'fr';

interface Text {
  display_name: string;
  description: string;
  short_description: string;
}

export interface CatalogProduct {
  city: City;
  /** Localized texts; `en` is also the non-localized display_name of estimates. */
  text: Record<Lang, Text>;
  product: Omit<Product, keyof Text>;
  /**
   * Rates behind products whose price_details are null (taxi: metered; shared: upfront),
   * so that estimates can still be computed.
   */
  rates: PriceDetails;
  /** Drivers near by default (PUT /v1.2/sandbox/products/{id} changes it). */
  drivers: boolean;
}

export interface SurgeZone {
  name: string;
  center: Point;
  radiusMiles: number;
  multiplier: number;
}

export interface City {
  slug: string;
  name: Record<Lang, string>;
  center: Point;
  /** Service area: a circle around the center. */
  radiusMiles: number;
  currency: string;
  distanceUnit: 'mile' | 'km';
  averageMph: number;
  surgeZones: SurgeZone[];
  products: CatalogProduct[];
}

type Group = Product['product_group'];

interface ProductSeed {
  group: Group;
  en: [string, string];
  fr: [string, string];
  capacity: number;
  shared?: boolean;
  /** Multiplies the city's base rates. */
  factor: number;
  drivers?: boolean;
}

const SEEDS: Record<Group, ProductSeed> = {
  rideshare: {
    group: 'rideshare',
    en: ['Pool', 'Share the ride, split the cost'],
    fr: ['Covoiturage', 'Partagez la course et son prix'],
    capacity: 2,
    shared: true,
    factor: 0.75,
  },
  platformx: {
    group: 'platformx',
    en: ['Economy', 'Affordable rides for up to 4'],
    fr: ['Économique', "Des courses abordables jusqu'à 4 personnes"],
    capacity: 4,
    factor: 1,
  },
  platformxl: {
    group: 'platformxl',
    en: ['Economy XL', 'Affordable rides for groups up to 6'],
    fr: ['Économique XL', "Des courses abordables jusqu'à 6 personnes"],
    capacity: 6,
    factor: 1.5,
  },
  platformblack: {
    group: 'platformblack',
    en: ['Black', 'Premium rides in luxury cars'],
    fr: ['Berline', 'Des courses haut de gamme'],
    capacity: 4,
    factor: 2.2,
  },
  suv: {
    group: 'suv',
    en: ['Black SUV', 'Premium rides for up to 6'],
    fr: ['Van', "Des courses haut de gamme jusqu'à 6 personnes"],
    capacity: 6,
    factor: 2.8,
    drivers: false,
  },
  taxi: { group: 'taxi', en: ['Taxi', 'Local taxis, metered fare'], fr: ['Taxi', 'Taxis locaux, prix au compteur'], capacity: 4, factor: 1.1 },
};

interface CitySeed {
  slug: string;
  name: Record<Lang, string>;
  center: Point;
  radiusMiles: number;
  currency: string;
  distanceUnit: 'mile' | 'km';
  averageMph: number;
  /** Base rates of the Economy product, per distance unit. */
  base: { base: number; minimum: number; perMinute: number; perDistance: number; cancellation: number; bookingFee: number };
  groups: Group[];
  /** Per-city overrides of a product seed (e.g. a one-seat shared ride). */
  overrides?: Partial<Record<Group, Partial<ProductSeed>>>;
  surgeZones: SurgeZone[];
}

const CITY_SEEDS: CitySeed[] = [
  {
    slug: 'san-francisco',
    name: { en: 'San Francisco', fr: 'San Francisco' },
    center: { latitude: 37.7749, longitude: -122.4194 },
    radiusMiles: 25,
    currency: 'USD',
    distanceUnit: 'mile',
    averageMph: 14,
    base: { base: 2.2, minimum: 7.65, perMinute: 0.26, perDistance: 1.3, cancellation: 5, bookingFee: 2.55 },
    groups: ['rideshare', 'platformx', 'platformxl', 'platformblack', 'suv', 'taxi'],
    // Around Moscone Center (a conference is always ending).
    surgeZones: [{ name: 'SoMa', center: { latitude: 37.7842, longitude: -122.4016 }, radiusMiles: 0.6, multiplier: 1.8 }],
  },
  {
    slug: 'new-york',
    name: { en: 'New York', fr: 'New York' },
    center: { latitude: 40.7128, longitude: -74.006 },
    radiusMiles: 25,
    currency: 'USD',
    distanceUnit: 'mile',
    averageMph: 11,
    base: { base: 2.55, minimum: 8, perMinute: 0.35, perDistance: 1.75, cancellation: 5, bookingFee: 2.75 },
    groups: ['rideshare', 'platformx', 'platformxl', 'platformblack', 'suv', 'taxi'],
    // New York's shared rides take one seat per request.
    overrides: { rideshare: { capacity: 1 } },
    surgeZones: [{ name: 'Times Square', center: { latitude: 40.758, longitude: -73.9855 }, radiusMiles: 0.5, multiplier: 2.1 }],
  },
  {
    slug: 'paris',
    name: { en: 'Paris', fr: 'Paris' },
    center: { latitude: 48.8566, longitude: 2.3522 },
    radiusMiles: 20,
    currency: 'EUR',
    distanceUnit: 'km',
    averageMph: 12,
    base: { base: 1.2, minimum: 7, perMinute: 0.3, perDistance: 1.05, cancellation: 5, bookingFee: 0 },
    // No shared rides and no SUVs here: "some products are not returned" (spec 4.4).
    groups: ['platformx', 'platformxl', 'platformblack', 'taxi'],
    surgeZones: [{ name: 'Gare du Nord', center: { latitude: 48.8809, longitude: 2.3553 }, radiusMiles: 0.4, multiplier: 1.5 }],
  },
];

const round2 = (n: number) => Math.round(n * 100) / 100;

/** A stable, UUID-shaped product id per city and group. */
function productId(city: string, group: string): string {
  const h = createHash('sha256').update(`${city}/${group}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

function buildCity(seed: CitySeed): City {
  const city: City = { ...seed, products: [] };
  for (const group of seed.groups) {
    const p = { ...SEEDS[group], ...seed.overrides?.[group] };
    const f = p.factor;
    const rates: PriceDetails = {
      base: round2(seed.base.base * f),
      minimum: round2(seed.base.minimum * f),
      cost_per_minute: round2(seed.base.perMinute * f),
      cost_per_distance: round2(seed.base.perDistance * f),
      cancellation_fee: seed.base.cancellation,
      distance_unit: seed.distanceUnit,
      currency_code: seed.currency,
      service_fees: seed.base.bookingFee > 0 ? [{ name: 'Booking fee', fee: seed.base.bookingFee }] : [],
    };
    const metered = group === 'taxi';
    const shared = Boolean(p.shared);
    city.products.push({
      city,
      text: {
        en: { display_name: p.en[0], description: p.en[1], short_description: p.en[0] },
        fr: { display_name: p.fr[0], description: p.fr[1], short_description: p.fr[0] },
      },
      product: {
        product_id: productId(seed.slug, group),
        image: `https://sandbox.invalid/images/${group}.png`,
        capacity: p.capacity,
        product_group: group,
        cash_enabled: metered,
        shared,
        upfront_fare_enabled: !metered,
        // Null for metered (taxi) and upfront-fare shared products (spec 2.8).
        price_details: metered || shared ? null : rates,
      },
      rates,
      drivers: p.drivers ?? true,
    });
  }
  return city;
}

export class Catalog {
  readonly cities: City[] = CITY_SEEDS.map(buildCity);
  readonly #byId = new Map<string, CatalogProduct>();

  constructor() {
    for (const city of this.cities) for (const p of city.products) this.#byId.set(p.product.product_id, p);
  }

  /** The city whose service area holds the point, if any. */
  cityAt(point: Point): City | undefined {
    return this.cities.find((c) => milesBetween(c.center, point) <= c.radiusMiles);
  }

  product(id: string): CatalogProduct | undefined {
    return this.#byId.get(id);
  }

  /** The seeded surge at a point (1 outside every zone). */
  zoneMultiplier(city: City, point: Point): number {
    return Math.max(1, ...city.surgeZones.filter((z) => milesBetween(z.center, point) <= z.radiusMiles).map((z) => z.multiplier));
  }
}

/** The resource as GET /products shows it, in one language. */
export function productResource(p: CatalogProduct, lang: Lang): Product {
  return { ...p.product, ...p.text[lang] };
}

/** "fr-FR,fr;q=0.9,en;q=0.8" -> fr; anything unknown -> en. */
export function languageOf(acceptLanguage: string | undefined): Lang {
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]!.trim().toLowerCase().slice(0, 2);
    if (tag === 'fr' || tag === 'en') return tag;
  }
  return 'en';
}
