import type { Context } from '../../../context.js';
import { ApiError, UsageError } from '../../../errors.js';
import { UpdateAdGroupInput } from '../../../schemas/ads.js';
import { givenFlags, runBulkCommand, type BulkFlags } from '../bulk.js';
import { adGroupBody, type AdGroupFlags } from '../flags.js';
import { AD_GROUP_FIELD_FLAGS } from './create.js';

type Flags = AdGroupFlags & BulkFlags & { account: string; campaign?: string };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  if (flags.fromCsv === undefined && !flags.campaign) throw new UsageError('--campaign is required (with --from-csv, a campaign_id column can give it per row)');
  const fields = givenFlags(flags, [...AD_GROUP_FIELD_FLAGS, 'budgetUnit']);
  const client = await ctx.client();
  return runBulkCommand(ctx, {
    resource: 'ad_groups',
    mode: 'patch',
    wrapper: 'ad_groups',
    idField: 'ad_group_id',
    schema: UpdateAdGroupInput,
    fieldFlags: flags.adGroupId !== undefined ? [...fields, '--ad-group-id'] : fields,
    campaign: flags.campaign,
    needsCampaign: true,
    fromFlags: () => {
      if (!flags.adGroupId) throw new UsageError('--ad-group-id is required (or use --from-csv / --from-json)');
      if (!fields.length) throw new UsageError('nothing to change: give at least one field flag (see --help)');
      return adGroupBody(flags, 'patch', new Date(ctx.clock.now()));
    },
    send: (batch, options) =>
      client.ads.patchAdGroups(flags.account, batch.campaignId!, batch.items as never, options),
    lookup: async (ids, campaignId) => {
      try {
        const page = await client.ads.listAdGroups(flags.account, campaignId!, { adGroupIds: ids, pageLimit: ids.length });
        return new Map(page.items.map((g) => [g.ad_group_id, g as unknown as Record<string, unknown>]));
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return new Map();
        throw error;
      }
    },
  }, flags);
}
