import { AD_GROUPS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import { flagsRow } from '../flags.js';
import type { PatchAdGroupsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';
import { AD_GROUP_FIELD_FLAGS } from './create.js';
import { idGivenAs, resourceId } from '../resource-id.js';

export async function run(ctx: Context, flags: PatchAdGroupsFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = resourceId(args[0], flags.adGroupId, '--ad-group-id');
  if (flags.fromCsv === undefined && !flags.campaign)
    throw new UsageError('--campaign is required (with --from-csv, a campaign_id column can give it per row)');
  const fields = givenFlags(flags, [...AD_GROUP_FIELD_FLAGS, 'budgetUnit']);
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: AD_GROUPS,
    mode: 'patch',
    scope: { account: flags.account, campaign: flags.campaign },
    flags,
    fieldFlags: id !== undefined ? [...fields, idGivenAs(args[0], '--ad-group-id')] : fields,
    fromFlags: () => {
      if (!id) throw new UsageError('give the ad group id (`patch ID` or --ad-group-id ID), or use --from-csv / --from-json');
      if (!fields.length) throw new UsageError('nothing to change: give at least one field flag (see --help)');
      return flagsRow(flags, 'ad_group_id', id);
    },
  });
}
