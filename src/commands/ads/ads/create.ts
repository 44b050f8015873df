import { ADS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { adCreateRequest, givenFieldFlags } from '../requests.js';
import type { CreateAdsFlags } from '../spec.js';
import { runWrite } from '../write.js';

export async function run(ctx: Context, flags: CreateAdsFlags, _args: string[], invocation: Invocation): Promise<void> {
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: ADS,
    mode: 'create',
    scope: { account: flags.account, campaign: flags.campaign, adGroup: flags.adGroup },
    flags,
    fieldFlags: givenFieldFlags(flags, 'ads', 'create'),
    fromFlags: () => adCreateRequest(flags).cells,
  });
}
