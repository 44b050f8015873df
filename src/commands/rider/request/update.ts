// `platform rider request update ID --to LAT,LNG | --to-place home|work [--to-address TEXT]`:
// a new destination (PATCH /v1.2/requests/{id}, 204), then the ride as it is now.
import type { Context } from '../../../context.js';
import { rideView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import type { UpdateRequestBody } from '../../../schemas/rider.js';
import { destinationFields, tripEnd } from '../flags.js';
import type { RiderRequestUpdateFlags } from '../spec.js';
import { rideId } from './ride-id.js';

export async function run(ctx: Context, flags: RiderRequestUpdateFlags, args: string[]): Promise<void> {
  const id = rideId('update', args);
  const to = tripEnd('--to', flags.to, flags.toPlace, true);
  const body: UpdateRequestBody = { ...destinationFields(to), end_address: flags.toAddress };
  const client = await ctx.client();
  await client.rider.updateRequest(id, body);
  ctx.info(`Ride ${id} now goes to ${'place' in to ? to.place : flags.to}.`);
  await writeObject(ctx, rideView, await client.rider.request(id));
}
