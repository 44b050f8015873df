// `platform rider places set home|work --address TEXT`: saves the address (PUT /v1.2/places/{id}).
import type { Context } from '../../../context.js';
import { UsageError } from '../../../base/errors.js';
import { placeView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import { parsePlace } from '../flags.js';
import type { RiderPlacesSetFlags } from '../spec.js';

export async function run(ctx: Context, flags: RiderPlacesSetFlags, args: string[]): Promise<void> {
  const place = parsePlace('place', args[0] ?? '');
  const address = flags.address.trim();
  if (!address) throw new UsageError('--address is empty: give the address, e.g. "685 Market St, San Francisco, CA"');
  const client = await ctx.client();
  const saved = await client.rider.setPlace(place, address);
  ctx.info(`Saved ${place}: ${saved.address}`);
  await writeObject(ctx, placeView, saved);
}
