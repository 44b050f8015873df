import { AD_GROUPS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../base/errors.js';
import { adGroupPatchRequest, givenFieldFlags } from '../requests.js';
import type { PatchAdGroupsFlags } from '../spec.js';
import { runWrite } from '../write.js';
import { idGivenAs, resourceId } from '../resource-id.js';
import { requireAmountWithCurrency } from '../currency-flag.js';

export async function run(ctx: Context, flags: PatchAdGroupsFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = resourceId(args[0], flags.adGroupId, '--ad-group-id');
  if (flags.fromCsv === undefined && !flags.campaign)
    throw new UsageError('--campaign is required (with --from-csv, a campaign_id column can give it per row)');
  if (flags.fromCsv === undefined && flags.fromJson === undefined) {
    // Each goes with another flag; alone it would change nothing.
    if (flags.matchType !== undefined && flags.keywords === undefined)
      throw new UsageError('--match-type needs --keywords: it is the match type of the keywords given');
    requireAmountWithCurrency(flags, '--budget, --budget-e5 or --bid');
  }
  const fields = givenFieldFlags(flags, 'ad_groups', 'patch');
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: AD_GROUPS,
    mode: 'patch',
    scope: { account: flags.account, campaign: flags.campaign },
    flags,
    fieldFlags: id !== undefined ? [...fields, idGivenAs(args[0], '--ad-group-id')] : fields,
    fromFlags: () => adGroupPatchRequest(flags, args).cells,
  });
}
