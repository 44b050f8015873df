import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { adPatchRequest, givenFieldFlags } from '../requests.js';
import type { PatchAdsFlags } from '../spec.js';
import { runWrite } from '../write.js';
import { idGivenAs, resourceId } from '../resource-id.js';

export async function run(ctx: Context, flags: PatchAdsFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = resourceId(args[0], flags.adId, '--ad-id');
  const fields = givenFieldFlags(flags, 'ads', 'patch');
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: ADS,
    mode: 'patch',
    scope: { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup },
    flags,
    fieldFlags: id !== undefined ? [...fields, idGivenAs(args[0], '--ad-id')] : fields,
    fromFlags: () => adPatchRequest(flags, args).cells,
  });
}
