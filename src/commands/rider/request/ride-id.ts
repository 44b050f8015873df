import { UsageError } from '../../../base/errors.js';

/** The ride id argument of `rider request get|cancel|update|map ID`. */
export function rideId(action: string, args: string[]): string {
  const id = args[0]?.trim();
  if (!id) throw new UsageError(`rider request ${action} needs the request id (see \`platform rider history\`)`);
  if (args.length > 1) throw new UsageError(`rider request ${action} takes one request id`);
  return id;
}
