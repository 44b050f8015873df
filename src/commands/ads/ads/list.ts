import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import { adView } from '../../../output/views/ads.js';
import { listResources } from '../list.js';
import type { ListAdsFlags } from '../spec.js';

export async function run(ctx: Context, flags: ListAdsFlags): Promise<void> {
  await listResources(ctx, adView, flags, ADS, { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup });
}
