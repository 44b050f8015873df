// `platform rider request current`: the ride the rider is on now.
import type { Context } from '../../../context.js';
import { rideView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.client();
  await writeObject(ctx, rideView, await client.rider.currentRequest());
}
