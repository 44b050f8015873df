import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Ad } from '../../../schemas/ads.js';
import { adDetail } from '../../../output/views/ads-detail.js';
import type { ViewAdFlags } from '../spec.js';
import { viewResource } from '../view.js';

export async function run(ctx: Context, flags: ViewAdFlags, args: string[]): Promise<void> {
  await viewResource<Ad>(ctx, ADS, { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup }, args[0]!, adDetail);
}
