import type { Context } from '../../context.js';
import { write } from '../../base/stream-write.js';

/** Prints the access token (fetching or renewing it if needed): the one command that shows a secret. */
export async function run(ctx: Context): Promise<void> {
  const client = await ctx.client();
  await write(ctx.io.stdout, `${await client.tokens.token({ signal: ctx.signal })}\n`);
}
