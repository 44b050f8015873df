// `platform delivery quote --customer ID --pickup ADDR --dropoff ADDR`: a delivery fee quote.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { quoteView } from '../../output/views/rider.js';
import { writeObject } from '../../output/rows.js';
import type { DeliveryQuoteFlags } from './spec.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export async function run(ctx: Context, flags: DeliveryQuoteFlags): Promise<void> {
  if (!UUID.test(flags.customer.trim()))
    throw new UsageError(`--customer "${flags.customer}" is not a UUID (the organization's customer id, e.g. 7b6f1b36-3a0e-4d5b-9a3e-2f1c9d3e8a11)`);
  if (!flags.pickup.trim()) throw new UsageError('--pickup needs an address');
  if (!flags.dropoff.trim()) throw new UsageError('--dropoff needs an address');
  const client = await ctx.client();
  const quote = await client.delivery.quote(flags.customer.trim(), flags.pickup.trim(), flags.dropoff.trim());
  await writeObject(ctx, quoteView, quote);
}
