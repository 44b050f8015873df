// The id of the one resource a view or patch is about: the argument (`campaigns view ID`)
// or the flag (`--campaign-id ID`), which both stay part of the contract.
import { UsageError } from '../../base/errors.js';

export function resourceId(arg: string | undefined, flagValue: string | undefined, flag: string): string | undefined {
  if (arg !== undefined && flagValue !== undefined && arg !== flagValue)
    throw new UsageError(`the id argument ${arg} and ${flag} ${flagValue} differ: give one`);
  return arg ?? flagValue;
}

/** How a given id is named when it conflicts with --from-csv/--from-json. */
export function idGivenAs(arg: string | undefined, flag: string): string {
  return arg !== undefined ? 'an id argument' : flag;
}
