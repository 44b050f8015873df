import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { CreateCampaignInput } from '../../../schemas/ads.js';
import { submitAndReport } from '../batch.js';
import { campaignBody, type CampaignFlags } from '../flags.js';
import { collectItems, givenFlags } from '../items.js';

type Flags = CampaignFlags & { account: string; fromJson?: string; batchSize: number };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const { items, positions } = await collectItems(ctx, {
    fromJson: flags.fromJson,
    wrapper: 'campaigns',
    schema: CreateCampaignInput,
    fieldFlags: givenFlags(flags, ['name', 'status', 'budget', 'budgetE5', 'currency']),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-json)');
      return campaignBody(flags, 'create');
    },
    batchSize: flags.batchSize,
  });
  const client = await ctx.client();
  return submitAndReport(ctx, items, positions, flags.batchSize, (batch, options) => client.ads.createCampaigns(flags.account, batch, options), () => undefined);
}
