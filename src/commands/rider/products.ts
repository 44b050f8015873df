// `platform rider products --at LAT,LNG`: the products of the city at a place, in the API's order.
import type { Context } from '../../context.js';
import { productView } from '../../output/views/rider.js';
import { writeRows } from '../../output/rows.js';
import { catalogOptions, parseLocation } from './flags.js';
import type { RiderProductsFlags } from './spec.js';

export async function run(ctx: Context, flags: RiderProductsFlags): Promise<void> {
  const at = parseLocation('--at', flags.at);
  const client = await ctx.client();
  const products = await client.rider.products(at, catalogOptions(ctx, flags.lang));
  if (products.length === 0) ctx.info(`No products at ${flags.at}: it is outside every service area.`);
  else await writeRows(ctx, productView, products);
}
