// `ads products list`: the account's product catalog, paged like the other lists.
import type { Context } from '../../../context.js';
import { productView } from '../../../output/views/reports.js';
import { listPages } from '../list.js';
import type { ListProductsFlags } from './spec.js';

export async function run(ctx: Context, flags: ListProductsFlags): Promise<void> {
  const client = await ctx.client();
  await listPages(ctx, productView, flags, (query) => client.products.listProducts(flags.account, query));
}
