import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { CreateAdGroupInput } from '../../../schemas/ads.js';
import { submitAndReport } from '../batch.js';
import { adGroupBody, type AdGroupFlags } from '../flags.js';
import { collectItems, givenFlags } from '../items.js';

type Flags = AdGroupFlags & { account: string; campaign: string; fromJson?: string; batchSize: number };

export const AD_GROUP_FIELD_FLAGS = [
  'name', 'status', 'budget', 'budgetE5', 'currency', 'bid', 'autoBid', 'start', 'end', 'keywords', 'matchType',
  'platformOne', 'targetOperator', 'negateTargeting', 'storeIds', 'daypart',
];

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const { items, positions } = await collectItems(ctx, {
    fromJson: flags.fromJson,
    wrapper: 'ad_groups',
    schema: CreateAdGroupInput,
    fieldFlags: givenFlags(flags, AD_GROUP_FIELD_FLAGS),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-json)');
      return adGroupBody(flags, 'create', new Date(ctx.clock.now()));
    },
    batchSize: flags.batchSize,
  });
  const client = await ctx.client();
  return submitAndReport(ctx, items, positions, flags.batchSize, (batch, options) => client.ads.createAdGroups(flags.account, flags.campaign, batch, options), () => undefined);
}
