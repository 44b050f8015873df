import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { UpdateCampaignInput } from '../../../schemas/ads.js';
import { submitAndReport } from '../batch.js';
import { campaignBody, type CampaignFlags } from '../flags.js';
import { collectItems, givenFlags } from '../items.js';

type Flags = CampaignFlags & { account: string; fromJson?: string; batchSize: number };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const fields = givenFlags(flags, ['name', 'status', 'budget', 'budgetE5', 'currency', 'budgetUnit']);
  const { items, positions } = await collectItems(ctx, {
    fromJson: flags.fromJson,
    wrapper: 'campaigns',
    schema: UpdateCampaignInput,
    fieldFlags: flags.campaignId !== undefined ? [...fields, '--campaign-id'] : fields,
    fromFlags: () => {
      if (!flags.campaignId) throw new UsageError('--campaign-id is required (or use --from-json)');
      if (!fields.length) throw new UsageError('nothing to change: give --name, --status or a budget');
      return campaignBody(flags, 'patch');
    },
    batchSize: flags.batchSize,
  });
  const client = await ctx.client();
  return submitAndReport(ctx, items, positions, flags.batchSize, (batch, options) => client.ads.patchCampaigns(flags.account, batch, options), (item) => item.campaign_id);
}
