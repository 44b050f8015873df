import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import type { PatchAdsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';

export async function run(ctx: Context, flags: PatchAdsFlags, _args: string[], invocation: Invocation): Promise<void> {
  const fields = givenFlags(flags, ['name']);
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: ADS,
    mode: 'patch',
    scope: { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup },
    flags,
    fieldFlags: flags.adId !== undefined ? [...fields, '--ad-id'] : fields,
    fromFlags: () => {
      if (!flags.adId) throw new UsageError('--ad-id is required (or use --from-csv / --from-json)');
      if (flags.name === undefined) throw new UsageError('nothing to change: give --name');
      return { ad_id: flags.adId, name: flags.name };
    },
  });
}
