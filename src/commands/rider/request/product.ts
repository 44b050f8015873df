// --product ID|NAME: an id, or a product's name (English or localized, any case) among
// the products at the pickup.
import type { LatLng, RiderApi } from '../../../api/rider.js';
import { UsageError } from '../../../errors.js';
import type { Product } from '../../../schemas/rider.js';

export async function resolveProduct(rider: RiderApi, wanted: string, at: LatLng, from: string): Promise<Product> {
  const products = await rider.products(at);
  const name = wanted.trim().toLowerCase();
  const found = products.find((p) => p.product_id === wanted.trim()) ?? products.find((p) => p.display_name.toLowerCase() === name);
  if (found) return found;
  if (products.length === 0) throw new UsageError(`--from ${from} is outside every service area: no products there`);
  throw new UsageError(`--product "${wanted}" is not a product at ${from}; choose one of: ${products.map((p) => p.display_name).join(', ')}`);
}
