import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import { flagsRow } from '../flags.js';
import type { PatchCampaignsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';

export async function run(ctx: Context, flags: PatchCampaignsFlags, _args: string[], invocation: Invocation): Promise<void> {
  const fields = givenFlags(flags, ['name', 'status', 'budget', 'budgetE5', 'currency', 'budgetUnit']);
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: CAMPAIGNS,
    mode: 'patch',
    scope: { account: flags.account },
    flags,
    fieldFlags: flags.campaignId !== undefined ? [...fields, '--campaign-id'] : fields,
    fromFlags: () => {
      if (!flags.campaignId) throw new UsageError('--campaign-id is required (or use --from-csv / --from-json)');
      if (!fields.length) throw new UsageError('nothing to change: give --name, --status or a budget');
      return flagsRow(flags, 'campaign_id', flags.campaignId);
    },
  });
}
