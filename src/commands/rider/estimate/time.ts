// `platform rider estimate time --from LAT,LNG [--product ID]`: pickup ETAs; products
// with no driver near are absent.
import type { Context } from '../../../context.js';
import { timeView } from '../../../output/views/rider.js';
import { writeRows } from '../../../output/rows.js';
import { language, parseLocation } from '../flags.js';
import type { RiderEstimateTimeFlags } from '../spec.js';

export async function run(ctx: Context, flags: RiderEstimateTimeFlags): Promise<void> {
  const from = parseLocation('--from', flags.from);
  const client = await ctx.client();
  const times = await client.rider.timeEstimates(from, flags.product, { language: language(ctx, flags.lang) });
  await writeRows(ctx, timeView, times);
}
