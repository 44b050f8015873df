// `platform rider request cancel ID`: cancels as the rider (status rider_canceled).
import type { Context } from '../../../context.js';
import { rideView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import { rideId } from './ride-id.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const id = rideId('cancel', args);
  const client = await ctx.client();
  await client.rider.cancelRequest(id);
  ctx.info(`Canceled ride ${id}.`);
  await writeObject(ctx, rideView, await client.rider.request(id));
}
