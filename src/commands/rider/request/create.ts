// `platform rider request --product ID|NAME --from|--from-place --to|--to-place [--seats N] [--yes] [--accept-surge] [--wait]`:
// estimate -> show the fare -> confirm -> request. A 409 surge shows the multiplier and asks
// again (or follows --accept-surge), then retries with its surge_confirmation_id; a
// fare_expired re-estimates once and asks again. Without a terminal it never asks: it
// needs --yes (and --accept-surge where surge pricing is in effect).
import type { Context } from '../../../context.js';
import { CommandError, UsageError } from '../../../base/errors.js';
import { RiderApiError } from '../../../api/rider-errors.js';
import { rideView } from '../../../output/views/rider.js';
import { writeObject } from '../../../output/rows.js';
import type { CreateRequestBody, RequestEstimateBody, RideRequest } from '../../../schemas/rider.js';
import { checkSeats, destinationFields, startFields, tripEnd } from '../flags.js';
import { fareLine } from './fare.js';
import { waitAndReport } from './follow.js';
import { resolveProduct } from './product.js';
import type { RiderRequestFlags } from '../spec.js';

export async function run(ctx: Context, flags: RiderRequestFlags): Promise<void> {
  const from = tripEnd('--from', flags.from, flags.fromPlace, true);
  const to = tripEnd('--to', flags.to, flags.toPlace, true);
  const seats = checkSeats(flags.seats);
  if (!flags.product?.trim()) throw new UsageError('--product is required: a product id or name (see `platform rider products --at LAT,LNG`)');
  const interactive = ctx.io.stdinIsTTY;
  const { rider } = await ctx.client();
  const product = await resolveProduct(rider, flags.product, from, flags.from ?? '');
  const trip: RequestEstimateBody = { product_id: product.product_id, ...startFields(from), ...destinationFields(to), seat_count: seats };

  /** Estimates, shows the fare and gets the rider's yes (or --yes). */
  const estimateAndConfirm = async () => {
    const estimate = await rider.estimateRequest(trip);
    ctx.info(fareLine(product, estimate, ctx.clock.now()));
    if (!flags.yes) {
      if (!interactive) throw new CommandError('not requested: confirmation is needed and stdin is not a terminal; add --yes to request without asking');
      if (!(await ctx.confirm('Request this ride?', false))) throw new CommandError('not requested: you declined');
    }
    return estimate;
  };

  let estimate = await estimateAndConfirm();
  let reEstimated = false;
  let surgeConfirmationId: string | undefined;
  let ride: RideRequest;
  for (;;) {
    const body: CreateRequestBody = {
      ...trip,
      product_id: product.product_id,
      fare_id: estimate.price.fare_id,
      surge_confirmation_id: surgeConfirmationId,
      expense_code: flags.expenseCode,
      expense_memo: flags.expenseMemo,
    };
    try {
      ride = await rider.createRequest(body);
      break;
    } catch (error) {
      if (!(error instanceof RiderApiError)) throw error;
      if (error.code === 'surge' && error.surge && !surgeConfirmationId) {
        const { multiplier, href } = error.surge;
        ctx.info(`Surge pricing is in effect: fares are x${multiplier} now.`);
        if (!flags.acceptSurge) {
          if (!interactive) throw new CommandError(`surge: not requested; fares are x${multiplier} now. Accept with --accept-surge, or confirm at ${href}`);
          if (!(await ctx.confirm(`Accept surge pricing of x${multiplier}?`, false)))
            throw new CommandError(`not requested: you declined surge pricing of x${multiplier}`);
        }
        surgeConfirmationId = error.surge.surge_confirmation_id;
        continue;
      }
      if (error.code === 'fare_expired' && !reEstimated) {
        reEstimated = true;
        ctx.info('The fare expired; estimating again.');
        estimate = await estimateAndConfirm();
        surgeConfirmationId = undefined;
        continue;
      }
      throw error;
    }
  }
  ctx.info(`Requested ${product.display_name}: ride ${ride.request_id} is ${ride.status}.`);
  if (!flags.wait) {
    await writeObject(ctx, rideView, ride);
    return;
  }
  await waitAndReport(ctx, rider, ride);
}
