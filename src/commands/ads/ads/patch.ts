import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import type { PatchAdsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';
import { idGivenAs, resourceId } from '../resource-id.js';

export async function run(ctx: Context, flags: PatchAdsFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = resourceId(args[0], flags.adId, '--ad-id');
  const fields = givenFlags(flags, ['name']);
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: ADS,
    mode: 'patch',
    scope: { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup },
    flags,
    fieldFlags: id !== undefined ? [...fields, idGivenAs(args[0], '--ad-id')] : fields,
    fromFlags: () => {
      if (!id) throw new UsageError('give the ad id (`patch ID` or --ad-id ID), or use --from-csv / --from-json');
      if (flags.name === undefined) throw new UsageError('nothing to change: give --name');
      return { ad_id: id, name: flags.name };
    },
  });
}
