// `platform rider request get ID [--wait]`: one ride request, or followed to its end.
import type { Context } from '../../../context.js';
import { rideView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import type { RiderRequestGetFlags } from '../spec.js';
import { waitAndReport } from './follow.js';
import { rideId } from './ride-id.js';

export async function run(ctx: Context, flags: RiderRequestGetFlags, args: string[]): Promise<void> {
  const id = rideId('get', args);
  const { rider } = await ctx.client();
  const ride = await rider.request(id);
  if (flags.wait) await waitAndReport(ctx, rider, ride);
  else await writeObject(ctx, rideView, ride);
}
