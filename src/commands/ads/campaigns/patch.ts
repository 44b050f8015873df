import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { campaignPatchRequest, givenFieldFlags } from '../requests.js';
import type { PatchCampaignsFlags } from '../spec.js';
import { runWrite } from '../write.js';
import { idGivenAs, resourceId } from '../resource-id.js';
import { requireAmountWithCurrency } from '../currency-flag.js';

export async function run(ctx: Context, flags: PatchCampaignsFlags, args: string[], invocation: Invocation): Promise<void> {
  const id = resourceId(args[0], flags.campaignId, '--campaign-id');
  if (flags.fromCsv === undefined && flags.fromJson === undefined) requireAmountWithCurrency(flags, '--budget or --budget-e5');
  const fields = givenFieldFlags(flags, 'campaigns', 'patch');
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: CAMPAIGNS,
    mode: 'patch',
    scope: { account: flags.account },
    flags,
    fieldFlags: id !== undefined ? [...fields, idGivenAs(args[0], '--campaign-id')] : fields,
    fromFlags: () => campaignPatchRequest(flags, args).cells,
  });
}
