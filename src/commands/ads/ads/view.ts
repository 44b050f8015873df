import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Ad } from '../../../schemas/ads.js';
import { adDetail } from '../../../output/views/ads-detail.js';
import type { ViewAdFlags } from '../spec.js';
import { viewResource } from '../view.js';
import { adView } from '../../../output/views/ads.js';
import { resourceId } from '../resource-id.js';
import { UsageError } from '../../../base/errors.js';

export async function run(ctx: Context, flags: ViewAdFlags, args: string[]): Promise<void> {
  const id = resourceId(args[0], flags.adId, '--ad-id');
  if (id === undefined) throw new UsageError('give the ad id: `platform ads ads view ID --campaign CAMPAIGN --ad-group AD_GROUP` (or --ad-id ID)');
  await viewResource<Ad>(ctx, ADS, { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup }, id, adDetail, adView);
}
