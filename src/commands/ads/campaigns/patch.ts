import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { UpdateCampaignInput } from '../../../schemas/ads.js';
import { givenFlags, runBulkCommand, type BulkFlags } from '../bulk.js';
import { campaignBody, type CampaignFlags } from '../flags.js';

type Flags = CampaignFlags & BulkFlags & { account: string };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const fields = givenFlags(flags, ['name', 'status', 'budget', 'budgetE5', 'currency', 'budgetUnit']);
  const client = await ctx.client();
  return runBulkCommand(ctx, {
    resource: 'campaigns',
    mode: 'patch',
    wrapper: 'campaigns',
    idField: 'campaign_id',
    schema: UpdateCampaignInput,
    fieldFlags: flags.campaignId !== undefined ? [...fields, '--campaign-id'] : fields,
    fromFlags: () => {
      if (!flags.campaignId) throw new UsageError('--campaign-id is required (or use --from-csv / --from-json)');
      if (!fields.length) throw new UsageError('nothing to change: give --name, --status or a budget');
      return campaignBody(flags, 'patch');
    },
    send: (batch, options) =>
      client.ads.patchCampaigns(flags.account, batch.items as never, options),
    lookup: async (ids) => {
      const page = await client.ads.listCampaigns(flags.account, { campaignIds: ids, pageLimit: ids.length });
      return new Map(page.items.map((c) => [c.campaign_id, c as unknown as Record<string, unknown>]));
    },
  }, flags);
}
