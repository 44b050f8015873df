// `platform rider me [--apply-promo CODE]`: the signed-in rider's profile; applies a promotion code first when given.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { profileView } from '../../output/views/rider.js';
import { writeObject } from '../../output/rows.js';
import type { RiderMeFlags } from './spec.js';

export async function run(ctx: Context, flags: RiderMeFlags): Promise<void> {
  if (flags.applyPromo !== undefined && flags.applyPromo.trim() === '') throw new UsageError('--apply-promo needs a promotion code');
  const client = await ctx.client();
  if (flags.applyPromo) {
    const applied = await client.rider.applyPromotion(flags.applyPromo.trim());
    ctx.info(`Applied promotion ${applied.promotion_code}: ${applied.description}`);
  }
  await writeObject(ctx, profileView, await client.rider.me());
}
