import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { CreateAdGroupInput } from '../../../schemas/ads.js';
import { givenFlags, runBulkCommand, type BulkFlags } from '../bulk.js';
import { adGroupBody, type AdGroupFlags } from '../flags.js';

type Flags = AdGroupFlags & BulkFlags & { account: string; campaign?: string };

export const AD_GROUP_FIELD_FLAGS = [
  'name', 'status', 'budget', 'budgetE5', 'currency', 'bid', 'autoBid', 'start', 'end', 'keywords', 'matchType',
  'platformOne', 'targetOperator', 'negateTargeting', 'storeIds', 'daypart',
];

export async function run(ctx: Context, flags: Flags): Promise<number> {
  if (flags.fromCsv === undefined && !flags.campaign) throw new UsageError('--campaign is required (with --from-csv, a campaign_id column can give it per row)');
  const client = await ctx.client();
  return runBulkCommand(ctx, {
    resource: 'ad_groups',
    mode: 'create',
    wrapper: 'ad_groups',
    idField: 'ad_group_id',
    schema: CreateAdGroupInput,
    fieldFlags: givenFlags(flags, AD_GROUP_FIELD_FLAGS),
    campaign: flags.campaign,
    needsCampaign: true,
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-csv / --from-json)');
      return adGroupBody(flags, 'create', new Date(ctx.clock.now()));
    },
    send: (batch, options) =>
      client.ads.createAdGroups(flags.account, batch.campaignId!, batch.items as never, options),
  }, flags);
}
