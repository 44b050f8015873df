// `platform rider places get home|work`: the address saved for a place.
import type { Context } from '../../../context.js';
import { placeView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import { parsePlace } from '../flags.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const place = parsePlace('place', args[0] ?? '');
  const client = await ctx.client();
  await writeObject(ctx, placeView, await client.rider.place(place));
}
