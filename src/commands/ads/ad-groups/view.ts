import { AD_GROUPS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { AdGroup } from '../../../schemas/ads.js';
import { adGroupDetail } from '../../../output/views/ads-detail.js';
import type { ViewAdGroupFlags } from '../spec.js';
import { viewResource } from '../view.js';
import { adGroupView } from '../../../output/views/ads.js';
import { resourceId } from '../resource-id.js';
import { UsageError } from '../../../base/errors.js';

export async function run(ctx: Context, flags: ViewAdGroupFlags, args: string[]): Promise<void> {
  const id = resourceId(args[0], flags.adGroupId, '--ad-group-id');
  if (id === undefined) throw new UsageError('give the ad group id: `platform ads ad-groups view ID --campaign CAMPAIGN` (or --ad-group-id ID)');
  await viewResource<AdGroup>(ctx, AD_GROUPS, { account: flags.account, campaign: flags.campaign }, id, adGroupDetail, adGroupView);
}
