import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';

export async function run(ctx: Context): Promise<void> {
  const store = await ctx.config();
  const { name } = await ctx.profile();
  if (!store.getProfile(name)) throw new UsageError(`no profile named ${name}; see \`platform auth status\``);
  // The profile's grant stays, so that the next hint names the right `auth login`.
  await store.updateProfile(name, { token: undefined, client_secret: undefined, user: undefined });
  ctx.info(`Logged out of profile ${name}: its tokens and stored client secret are removed.`);
}
