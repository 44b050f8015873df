import type { Context } from '../../../context.js';
import { campaignView } from '../../../output/views/ads.js';
import { listPages, type PagingFlags } from '../list.js';

export async function run(ctx: Context, flags: PagingFlags & { account: string }): Promise<void> {
  const client = await ctx.client();
  await listPages(ctx, campaignView, flags, (query) => client.ads.listCampaigns(flags.account, { ...query, campaignIds: flags.id }));
}
