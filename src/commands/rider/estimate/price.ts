// `platform rider estimate price --from --to [--seats N]`: price estimates per product.
import type { Context } from '../../../context.js';
import { priceView } from '../../../output/views/rider.js';
import { writeRows } from '../../../output/rows.js';
import { catalogOptions, checkSeats, parseLocation } from '../flags.js';
import type { RiderEstimatePriceFlags } from '../spec.js';

export async function run(ctx: Context, flags: RiderEstimatePriceFlags): Promise<void> {
  const from = parseLocation('--from', flags.from);
  const to = parseLocation('--to', flags.to);
  const seats = checkSeats(flags.seats);
  const client = await ctx.client();
  const prices = await client.rider.priceEstimates(from, to, seats, catalogOptions(ctx, flags.lang));
  if (prices.length === 0) ctx.info(`No products at ${flags.from}: it is outside every service area.`);
  else await writeRows(ctx, priceView, prices);
  if (prices.some((p) => p.surge_multiplier > 1)) ctx.info('Surge pricing is in effect where SURGE shows a multiplier; the estimates include it.');
}
