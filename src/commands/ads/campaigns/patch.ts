import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import { flagsRow } from '../flags.js';
import type { PatchCampaignsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';
import { idGivenAs, resourceId } from '../resource-id.js';

export async function run(ctx: Context, flags: PatchCampaignsFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = resourceId(args[0], flags.campaignId, '--campaign-id');
  const fields = givenFlags(flags, ['name', 'status', 'budget', 'budgetE5', 'currency', 'budgetUnit']);
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: CAMPAIGNS,
    mode: 'patch',
    scope: { account: flags.account },
    flags,
    fieldFlags: id !== undefined ? [...fields, idGivenAs(args[0], '--campaign-id')] : fields,
    fromFlags: () => {
      if (!id) throw new UsageError('give the campaign id (`patch ID` or --campaign-id ID), or use --from-csv / --from-json');
      if (!fields.length) throw new UsageError('nothing to change: give --name, --status or a budget');
      return flagsRow(flags, 'campaign_id', id);
    },
  });
}
