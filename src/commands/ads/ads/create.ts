import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { CreateAdInput } from '../../../schemas/ads.js';
import { submitAndReport } from '../batch.js';
import { collectItems, givenFlags } from '../items.js';

type Flags = { account: string; campaign: string; adGroup: string; name?: string; fromJson?: string; batchSize: number };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const { items, positions } = await collectItems(ctx, {
    fromJson: flags.fromJson,
    wrapper: 'ads',
    schema: CreateAdInput,
    fieldFlags: givenFlags(flags, ['name']),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-json)');
      return { name: flags.name };
    },
    batchSize: flags.batchSize,
  });
  const client = await ctx.client();
  return submitAndReport(ctx, items, positions, flags.batchSize, (batch, options) => client.ads.createAds(flags.account, flags.campaign, flags.adGroup, batch, options), () => undefined);
}
