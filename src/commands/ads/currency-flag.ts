// --currency is the currency of the amounts given with it (a budget, a bid): a patch given it
// alone would change nothing and report the resource unchanged, so it is refused.
import { UsageError } from '../../base/errors.js';

/** `amounts`: the flags it goes with, as the error names them. */
export function requireAmountWithCurrency(flags: { currency?: string; budget?: string; budgetE5?: string; bid?: string }, amounts: string): void {
  if (flags.currency === undefined) return;
  if (flags.budget === undefined && flags.budgetE5 === undefined && flags.bid === undefined)
    throw new UsageError(`--currency needs ${amounts}: it is the currency of the amount given`);
}
