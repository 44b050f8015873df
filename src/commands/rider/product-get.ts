// `platform rider products get ID`: one product by id (GET /v1.2/products/{product_id}).
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { productView } from '../../output/views/rider.js';
import { writeObject } from '../../output/rows.js';
import { catalogOptions } from './flags.js';

export async function run(ctx: Context, flags: { lang?: string }, args: string[]): Promise<void> {
  const id = args[0]?.trim();
  if (!id) throw new UsageError('rider products get needs the product id (see `platform rider products --at LAT,LNG`)');
  const client = await ctx.client();
  await writeObject(ctx, productView, await client.rider.product(id, catalogOptions(ctx, flags.lang)));
}
