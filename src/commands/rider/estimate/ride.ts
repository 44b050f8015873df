// `platform rider estimate ride [--product ID|NAME] --from|--from-place [--to|--to-place] [--seats N]`:
// the request estimate (POST /v1.2/requests/estimate): the upfront fare, trip and pickup a
// request would get. Without a destination the API gives the minimum fare only.
import type { Context } from '../../../context.js';
import { requestEstimateView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import type { RequestEstimateBody } from '../../../schemas/rider.js';
import { checkSeats, destinationFields, startFields, tripEnd } from '../flags.js';
import { resolveProduct } from '../request/product.js';
import type { RiderEstimateRideFlags } from '../spec.js';

export async function run(ctx: Context, flags: RiderEstimateRideFlags): Promise<void> {
  const from = tripEnd('--from', flags.from, flags.fromPlace, true);
  const to = tripEnd('--to', flags.to, flags.toPlace, false);
  const seats = checkSeats(flags.seats);
  const { rider } = await ctx.client();
  const product = flags.product?.trim() ? await resolveProduct(rider, flags.product, from, flags.from ?? '') : undefined;
  const body: RequestEstimateBody = { product_id: product?.product_id, ...startFields(from), ...destinationFields(to), seat_count: seats };
  const estimate = await rider.estimateRequest(body);
  if (estimate.price.surge_multiplier > 1) ctx.info(`Surge pricing is in effect: x${estimate.price.surge_multiplier}, included in the fare.`);
  await writeObject(ctx, requestEstimateView, estimate);
}
