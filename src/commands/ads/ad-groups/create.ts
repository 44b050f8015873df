import { AD_GROUPS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import { flagsRow } from '../flags.js';
import type { CreateAdGroupsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';

export const AD_GROUP_FIELD_FLAGS = [
  'name',
  'status',
  'budget',
  'budgetE5',
  'currency',
  'bid',
  'autoBid',
  'start',
  'end',
  'keywords',
  'matchType',
  'platformOne',
  'targetOperator',
  'negateTargeting',
  'storeIds',
  'daypart',
] as const;

export async function run(ctx: Context, flags: CreateAdGroupsFlags, _args: string[], invocation: Invocation): Promise<void> {
  if (flags.fromCsv === undefined && !flags.campaign)
    throw new UsageError('--campaign is required (with --from-csv, a campaign_id column can give it per row)');
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: AD_GROUPS,
    mode: 'create',
    scope: { account: flags.account, campaign: flags.campaign },
    flags,
    fieldFlags: givenFlags(flags, AD_GROUP_FIELD_FLAGS),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-csv / --from-json)');
      if (!flags.storeIds?.length) throw new UsageError('--store-ids is required: an ad group promotes at least one store');
      // Create defaults: active, starting now (automatic bidding and the listing product come from the mapping).
      const withBudget = flags.budget !== undefined || flags.budgetE5 !== undefined;
      return flagsRow({
        ...flags,
        budgetUnit: withBudget ? flags.budgetUnit : undefined,
        status: flags.status ?? 'active',
        start: flags.start ?? new Date(ctx.clock.now()).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      });
    },
  });
}
