// `platform rider request get ID`: one ride request.
import type { Context } from '../../../context.js';
import { rideView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import { rideId } from './ride-id.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const id = rideId('get', args);
  const client = await ctx.client();
  await writeObject(ctx, rideView, await client.rider.request(id));
}
