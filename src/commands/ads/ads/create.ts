import type { Context } from '../../../context.js';
import { UsageError } from '../../../errors.js';
import { CreateAdInput } from '../../../schemas/ads.js';
import { givenFlags, runBulkCommand, type BulkFlags } from '../bulk.js';

type Flags = BulkFlags & { account: string; campaign: string; adGroup: string; name?: string };

export async function run(ctx: Context, flags: Flags): Promise<number> {
  const client = await ctx.client();
  return runBulkCommand(ctx, {
    resource: 'ads',
    mode: 'create',
    wrapper: 'ads',
    idField: 'ad_id',
    schema: CreateAdInput,
    fieldFlags: givenFlags(flags, ['name']),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-json)');
      return { name: flags.name };
    },
    send: (batch, options) =>
      client.ads.createAds(flags.account, flags.campaign, flags.adGroup, batch.items as never, options),
  }, flags);
}
