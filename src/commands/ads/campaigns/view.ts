import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Campaign } from '../../../schemas/ads.js';
import { campaignDetail } from '../../../output/views/ads-detail.js';
import type { ViewCampaignFlags } from '../spec.js';
import { viewResource } from '../view.js';
import { campaignView } from '../../../output/views/ads.js';
import { resourceId } from '../resource-id.js';
import { UsageError } from '../../../base/errors.js';

export async function run(ctx: Context, flags: ViewCampaignFlags, args: string[]): Promise<void> {
  const id = resourceId(args[0], flags.campaignId, '--campaign-id');
  if (id === undefined) throw new UsageError('give the campaign id: `platform ads campaigns view ID` (or --campaign-id ID)');
  await viewResource<Campaign>(ctx, CAMPAIGNS, { account: flags.account }, id, campaignDetail, campaignView);
}
