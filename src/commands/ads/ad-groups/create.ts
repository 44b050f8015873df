import { AD_GROUPS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../base/errors.js';
import { adGroupCreateRequest, givenFieldFlags } from '../requests.js';
import type { CreateAdGroupsFlags } from '../spec.js';
import { runWrite } from '../write.js';

export async function run(ctx: Context, flags: CreateAdGroupsFlags, _args: string[], invocation: Invocation): Promise<void> {
  if (flags.fromCsv === undefined && !flags.campaign)
    throw new UsageError('--campaign is required (with --from-csv, a campaign_id column can give it per row)');
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: AD_GROUPS,
    mode: 'create',
    scope: { account: flags.account, campaign: flags.campaign },
    flags,
    fieldFlags: givenFieldFlags(flags, 'ad_groups', 'create'),
    fromFlags: () => adGroupCreateRequest(flags, ctx.clock.now()).cells,
  });
}
