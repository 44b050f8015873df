import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Campaign } from '../../../schemas/ads.js';
import { campaignDetail } from '../../../output/views/ads-detail.js';
import type { ViewCampaignFlags } from '../spec.js';
import { viewResource } from '../view.js';

export async function run(ctx: Context, flags: ViewCampaignFlags, args: string[]): Promise<void> {
  await viewResource<Campaign>(ctx, CAMPAIGNS, { account: flags.account }, args[0]!, campaignDetail);
}
