import type { Context } from '../../../context.js';
import { storeView } from '../../../output/views/ads.js';
import { listPages, type PagingFlags } from '../list.js';

export async function run(ctx: Context, flags: PagingFlags & { account: string }): Promise<void> {
  const client = await ctx.client();
  await listPages(ctx, storeView, flags, (query) => client.ads.listStores(flags.account, query));
}
