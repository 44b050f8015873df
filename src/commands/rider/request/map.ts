// `platform rider request map ID`: the link to the ride's map.
import type { Context } from '../../../context.js';
import { rideMapView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import { rideId } from './ride-id.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const id = rideId('map', args);
  const client = await ctx.client();
  await writeObject(ctx, rideMapView, await client.rider.rideMap(id));
}
