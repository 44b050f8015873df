import { AD_GROUPS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { AdGroup } from '../../../schemas/ads.js';
import { adGroupDetail } from '../../../output/views/ads-detail.js';
import type { ViewAdGroupFlags } from '../spec.js';
import { viewResource } from '../view.js';

export async function run(ctx: Context, flags: ViewAdGroupFlags, args: string[]): Promise<void> {
  await viewResource<AdGroup>(ctx, AD_GROUPS, { account: flags.account, campaign: flags.campaign }, args[0]!, adGroupDetail);
}
