// --product ID|NAME: an id, or a product's name (English or localized, any case) among
// the products at the pickup. From a saved place there are no coordinates to list the
// products at, so the product is looked up by id (GET /v1.2/products/{id}).
import type { LatLng, RiderApi } from '../../../api/rider.js';
import { RiderApiError } from '../../../api/rider-errors.js';
import { UsageError } from '../../../base/errors.js';
import type { Product } from '../../../schemas/rider.js';
import type { TripEnd } from '../flags.js';

export async function resolveProduct(rider: RiderApi, wanted: string, from: TripEnd, fromFlag: string): Promise<Product> {
  if ('place' in from) return productById(rider, wanted.trim(), from.place);
  return productAt(rider, wanted, from.at, fromFlag);
}

async function productAt(rider: RiderApi, wanted: string, at: LatLng, from: string): Promise<Product> {
  const products = await rider.products(at);
  const name = wanted.trim().toLowerCase();
  const found = products.find((p) => p.product_id === wanted.trim()) ?? products.find((p) => p.display_name.toLowerCase() === name);
  if (found) return found;
  if (products.length === 0) throw new UsageError(`--from ${from} is outside every service area: no products there`);
  throw new UsageError(`--product "${wanted}" is not a product at ${from}; choose one of: ${products.map((p) => p.display_name).join(', ')}`);
}

async function productById(rider: RiderApi, id: string, place: string): Promise<Product> {
  try {
    return await rider.product(id);
  } catch (error) {
    if (error instanceof RiderApiError && error.status === 404) {
      throw new UsageError(
        `--product "${id}" is not a product id; with --from-place ${place} give the product's id (names need --from LAT,LNG; see \`platform rider products --at LAT,LNG\`)`,
      );
    }
    throw error;
  }
}
