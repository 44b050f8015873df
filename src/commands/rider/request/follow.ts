// --wait: follows a ride until a final status, with a spinner on a terminal (one line per
// change otherwise), then fetches the receipt of a completed ride.
import type { Ora } from 'ora';
import type { RiderApi } from '../../../api/rider.js';
import { RiderApiError } from '../../../api/rider-errors.js';
import type { Context } from '../../../context.js';
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
  let ride = first;
  let spinner: Ora | undefined;
  if (ctx.io.stderrIsTTY) {
    const { default: ora } = await import('ora');
    spinner = ora({ text: describe(ride), stream: ctx.io.stderr, isEnabled: true, discardStdin: false }).start();
  } else {
    ctx.info(describe(ride));
  }
  try {
    while (!FINAL_STATUSES.includes(ride.status)) {
      await ctx.clock.sleep(POLL_MS, ctx.signal);
      const next = await rider.request(ride.request_id);
      if (next.status !== ride.status) {
        if (spinner) spinner.text = describe(next);
        else ctx.info(describe(next));
      }
      ride = next;
    }
  } finally {
    spinner?.stop();
  }
  ctx.info(describe(ride));
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
