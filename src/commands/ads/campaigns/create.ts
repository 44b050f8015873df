import { CAMPAIGNS } from '../../../api/ads-resources.js';
import type { Context } from '../../../context.js';
import type { Invocation } from '../../spec.js';
import { UsageError } from '../../../errors.js';
import { flagsRow } from '../flags.js';
import type { CreateCampaignsFlags } from '../spec.js';
import { givenFlags, runWrite } from '../write.js';

export async function run(ctx: Context, flags: CreateCampaignsFlags, _args: string[], invocation: Invocation): Promise<void> {
  await runWrite(ctx, {
    argv: invocation.argv,
    resource: CAMPAIGNS,
    mode: 'create',
    scope: { account: flags.account },
    flags,
    fieldFlags: givenFlags(flags, ['name', 'status', 'budget', 'budgetE5', 'currency']),
    fromFlags: () => {
      if (flags.name === undefined) throw new UsageError('--name is required (or use --from-csv / --from-json)');
      // --budget-unit has a default; it belongs in the row only with a budget.
      const withBudget = flags.budget !== undefined || flags.budgetE5 !== undefined;
      return flagsRow({ ...flags, status: flags.status ?? 'active', budgetUnit: withBudget ? flags.budgetUnit : undefined });
    },
  });
}
