import { AD_GROUPS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import { adGroupView } from '../../../output/views/ads.js';
import { listResources } from '../list.js';
import type { ListAdGroupsFlags } from '../spec.js';

export async function run(ctx: Context, flags: ListAdGroupsFlags): Promise<void> {
  await listResources(ctx, adGroupView, flags, AD_GROUPS, { account: flags.account, campaign: flags.campaign });
}
