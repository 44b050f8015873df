// --wait: follows a ride until a final status, with a spinner on a terminal (one line per
// change otherwise), then fetches the receipt of a completed ride.
import type { RiderApi } from '../../../api/rider.js';
import { RiderApiError } from '../../../api/rider-errors.js';
import type { Context } from '../../../context.js';
import { CommandError, InterruptedError } from '../../../base/errors.js';
import { writeObject } from '../../../output/rows.js';
import { receiptView, rideView } from '../../../output/views/rider.js';
import { FINAL_STATUSES, type Receipt, type RideRequest } from '../../../schemas/rider.js';

/** How often the status is read. The sandbox's --time-scale makes rides quick; this stays polite. */
const POLL_MS = 3000;
/** The receipt may lag the completion a little: how many reads before giving up. */
const RECEIPT_ATTEMPTS = 5;

function describe(ride: RideRequest): string {
  const driver = ride.driver && ride.vehicle ? ` (${ride.driver.name}, ${ride.vehicle.make} ${ride.vehicle.model} ${ride.vehicle.license_plate})` : '';
  const eta = ride.eta !== null && ride.eta !== undefined && ride.status !== 'in_progress' ? `, ETA ${ride.eta} min` : '';
  return `Ride ${ride.request_id}: ${ride.status.replace(/_/g, ' ')}${driver}${eta}`;
}

export async function follow(ctx: Context, rider: RiderApi, first: RideRequest): Promise<{ ride: RideRequest; receipt?: Receipt }> {
  // A ride already over has nothing to wait for: its line, without a spinner flashing first.
  const over = FINAL_STATUSES.includes(first.status);
  const ride = over ? first : await untilOver(ctx, rider, first);
  if (over) ctx.info(describe(ride));
  if (ride.status !== 'completed') return { ride };
  for (let attempt = 1; ; attempt++) {
    try {
      return { ride, receipt: await rider.receipt(ride.request_id) };
    } catch (error) {
      if (!(error instanceof RiderApiError && error.code === 'receipt_not_ready') || attempt >= RECEIPT_ATTEMPTS) throw error;
      await ctx.clock.sleep(POLL_MS, ctx.signal);
    }
  }
}

/** Reads the ride until it ends, the status line (a spinner on a terminal) saying each change. */
async function untilOver(ctx: Context, rider: RiderApi, first: RideRequest): Promise<RideRequest> {
  let ride = first;
  const status = await ctx.status(describe(ride));
  try {
    while (!FINAL_STATUSES.includes(ride.status)) {
      await ctx.clock.sleep(POLL_MS, ctx.signal).catch((error: unknown) => {
        if (!ctx.signal.aborted) throw error;
        // Ctrl-C stops the following, not the ride: say how to pick it up again.
        const id = ride.request_id;
        throw new InterruptedError(
          `interrupted: ride ${id} is still ${ride.status.replace(/_/g, ' ')}. Follow it with \`platform rider request get ${id} --wait\`, or cancel it with \`platform rider request cancel ${id}\`.`,
        );
      });
      const next = await rider.request(ride.request_id);
      if (next.status !== ride.status) status.update(describe(next));
      ride = next;
    }
  } finally {
    status.stop();
  }
  if (ctx.io.stderrIsTTY) ctx.info(describe(ride));
  return ride;
}

/** --wait: follows the ride, then prints its receipt (or the ride, and fails, when it ended without a trip). */
export async function waitAndReport(ctx: Context, rider: RiderApi, ride: RideRequest): Promise<void> {
  const result = await follow(ctx, rider, ride);
  if (result.receipt) {
    await writeObject(ctx, receiptView, result.receipt);
    return;
  }
  await writeObject(ctx, rideView, result.ride);
  throw new CommandError(`The ride ended without a trip: ${result.ride.status}.`);
}
