import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import type { CreateAdsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';

export async function run(ctx: Context, flags: CreateAdsFlags, _args: string[], invocation: Invocation): Promise<void> {
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: ADS,
    mode: 'create',
    scope: { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup },
    flags,
    fieldFlags: givenFlags(flags, ['name']),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-json)');
      return { name: flags.name };
    },
  });
}
