import type { Context } from '../../../context.js';
import { adGroupView } from '../../../output/views/ads.js';
import { listPages, type PagingFlags } from '../list.js';

export async function run(ctx: Context, flags: PagingFlags & { account: string; campaign: string }): Promise<void> {
  const client = await ctx.client();
  await listPages(ctx, adGroupView, flags, (query) => client.ads.listAdGroups(flags.account, flags.campaign, { ...query, adGroupIds: flags.id }));
}
