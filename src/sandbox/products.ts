// The product catalog (OpenAPI tag Product Catalog): GET /v1/ads/{account_id}/products, paged
// like the other lists. Each account's catalog is derived from its id, so it is the same on
// every start and needs nothing in --state.
import { SCOPES } from '../schemas/ads.js';
import type { Product } from '../schemas/report-requests.js';
import { requireAccount } from './ads-common.js';
import { authenticate } from './auth.js';
import type { SandboxContext } from './context.js';
import { faultyRoutes } from './faults.js';
import { json } from './http.js';
import { paginate } from './pagination.js';
import { hash32, intBetween, mulberry32, pick } from './prng.js';
import type { Router } from './router.js';

/** Products per account catalog (ours). */
export const PRODUCTS_PER_ACCOUNT = 240;

const BRANDS: ReadonlyArray<[brand: string, owner: string]> = [
  ["Tony's", "Tony's Italian Kitchen"],
  ['Windy City', 'Windy City Pizza Co'],
  ['Garden', 'Garden Bistro'],
  ['Morning Sun', 'Sunrise Foods Inc'],
  ['Blue Harbor', 'Blue Harbor Seafood LLC'],
  ['Crispy Co', 'Snack Brands Holdings'],
  ['Pure Spring', 'Pure Spring Beverages'],
  ['Golden Grain', 'Golden Grain Mills'],
];
const ITEMS = [
  'Margherita Pizza',
  'Deep Dish Special',
  'Caesar Salad',
  'Granola Bars',
  'Sparkling Water',
  'Potato Chips',
  'Cold Brew Coffee',
  'Greek Yogurt',
  'Sourdough Bread',
  'Salmon Fillet',
  'Oat Milk',
  'Dark Chocolate',
];
const SIZES = ['12 oz', '16 oz', '18 oz', '25 oz', '32 oz', '500 mL', '1 L', '6 count', '10 count', '200 g'];

/** GS1 check digit of the first 12 digits of a GTIN-13. */
export function gtinCheckDigit(first12: string): number {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(first12[i]) * (i % 2 === 0 ? 1 : 3);
  return (10 - (sum % 10)) % 10;
}

export function catalogOf(accountId: string): Product[] {
  const rng = mulberry32(hash32(`catalog:${accountId}`));
  const products: Product[] = [];
  const gtins = new Set<string>();
  while (products.length < PRODUCTS_PER_ACCOUNT) {
    let first12 = '0';
    for (let i = 0; i < 11; i++) first12 += String(intBetween(rng, 0, 9));
    const gtin = first12 + String(gtinCheckDigit(first12));
    if (gtins.has(gtin)) continue;
    gtins.add(gtin);
    const [brand, owner] = pick(rng, BRANDS);
    products.push({
      gtin,
      product_name: `${brand} ${pick(rng, ITEMS)}`,
      brand_owner_name: owner,
      brand_name: brand,
      main_image_url: `https://images.example.com/products/${gtin}.jpg`,
      size: pick(rng, SIZES),
    });
  }
  return products;
}

export function registerProductRoutes(router: Router, ctx: SandboxContext): void {
  const catalogs = new Map<string, Product[]>();
  faultyRoutes(router, ctx).get('/v1/ads/{account_id}/products', (req) => {
    authenticate(ctx, req, SCOPES.productsRead);
    const id = requireAccount(ctx, req).value.ad_account_id;
    let products = catalogs.get(id);
    if (!products) catalogs.set(id, (products = catalogOf(id)));
    const page = paginate(req, `products:${id}`, products);
    return json(200, page.next ? { products: page.items, next_page_token: page.next } : { products: page.items });
  });
}
