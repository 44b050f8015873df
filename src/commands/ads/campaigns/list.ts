import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import { campaignView } from '../../../output/views/ads.js';
import { listResources } from '../list.js';
import type { ListCampaignsFlags } from '../spec.js';

export async function run(ctx: Context, flags: ListCampaignsFlags): Promise<void> {
  await listResources(ctx, campaignView, flags, CAMPAIGNS, { account: flags.account });
}
