import type { Context } from '../../../context.js';
import { writeRows } from '../../../output/rows.js';
import { accountView } from '../../../output/views/ads.js';

export async function run(ctx: Context): Promise<void> {
  const client = await ctx.client();
  await writeRows(ctx, accountView, await client.ads.listAccounts());
}
