import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { CreateCampaignInput } from '../../../schemas/ads.js';
import { givenFlags, runBulkCommand, type BulkFlags } from '../bulk.js';
import { campaignBody, type CampaignFlags } from '../flags.js';

type Flags = CampaignFlags & BulkFlags & { account: string };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const client = await ctx.client();
  return runBulkCommand(ctx, {
    resource: 'campaigns',
    mode: 'create',
    wrapper: 'campaigns',
    idField: 'campaign_id',
    schema: CreateCampaignInput,
    fieldFlags: givenFlags(flags, ['name', 'status', 'budget', 'budgetE5', 'currency']),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-csv / --from-json)');
      return campaignBody(flags, 'create');
    },
    send: (batch, options) =>
      client.ads.createCampaigns(flags.account, batch.items as never, options),
  }, flags);
}
