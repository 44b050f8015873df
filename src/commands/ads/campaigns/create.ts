import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { campaignCreateRequest, givenFieldFlags } from '../requests.js';
import type { CreateCampaignsFlags } from '../spec.js';
import { runWrite } from '../write.js';

export async function run(ctx: Context, flags: CreateCampaignsFlags, _args: string[], invocation: Invocation): Promise<void> {
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: CAMPAIGNS,
    mode: 'create',
    scope: { account: flags.account },
    flags,
    fieldFlags: givenFieldFlags(flags, 'campaigns', 'create'),
    fromFlags: () => campaignCreateRequest(flags).cells,
  });
}
