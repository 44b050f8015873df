import type { Context } from '../../../context.js';
import { adView } from '../../../output/views/ads.js';
import { listPages, type PagingFlags } from '../list.js';

export async function run(ctx: Context, flags: PagingFlags & { account: string; campaign: string; adGroup: string }): Promise<void> {
  const client = await ctx.client();
  await listPages(ctx, adView, flags, (query) => client.ads.listAds(flags.account, flags.campaign, flags.adGroup, { ...query, adIds: flags.id }));
}
