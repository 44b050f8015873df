import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { UpdateAdGroupInput } from '../../../schemas/ads.js';
import { submitAndReport } from '../batch.js';
import { adGroupBody, type AdGroupFlags } from '../flags.js';
import { collectItems, givenFlags } from '../items.js';
import { AD_GROUP_FIELD_FLAGS } from './create.js';

type Flags = AdGroupFlags & { account: string; campaign: string; fromJson?: string; batchSize: number };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const fields = givenFlags(flags, [...AD_GROUP_FIELD_FLAGS, 'budgetUnit']);
  const { items, positions } = await collectItems(ctx, {
    fromJson: flags.fromJson,
    wrapper: 'ad_groups',
    schema: UpdateAdGroupInput,
    fieldFlags: flags.adGroupId !== undefined ? [...fields, '--ad-group-id'] : fields,
    fromFlags: () => {
      if (!flags.adGroupId) throw new UsageError('--ad-group-id is required (or use --from-json)');
      if (!fields.length) throw new UsageError('nothing to change: give at least one field flag (see --help)');
      return adGroupBody(flags, 'patch', new Date(ctx.clock.now()));
    },
    batchSize: flags.batchSize,
  });
  const client = await ctx.client();
  return submitAndReport(ctx, items, positions, flags.batchSize, (batch, options) => client.ads.patchAdGroups(flags.account, flags.campaign, batch, options), (item) => item.ad_group_id);
}
