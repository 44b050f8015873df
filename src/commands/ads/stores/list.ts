import type { Context } from '../../../context.js';
import { storeView } from '../../../output/views/ads.js';
import { listPages } from '../list.js';
import type { ListStoresFlags } from '../spec.js';

export async function run(ctx: Context, flags: ListStoresFlags): Promise<void> {
  const client = await ctx.client();
  await listPages(ctx, storeView, flags, (query) => client.ads.listStores(flags.account, query), { items: 'stores' });
}
