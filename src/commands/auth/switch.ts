// `platform auth switch NAME`: the profile used without --profile or PLATFORM_PROFILE.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const name = args[0]!;
  const store = await ctx.config();
  if (!store.getProfile(name)) throw new UsageError(`no profile named ${name}; the profiles are ${store.profileNames().join(', ')}`);
  await store.setDefaultProfile(name);
  ctx.info(`The default profile is now ${name}.`);
  if (ctx.env.PLATFORM_PROFILE && ctx.env.PLATFORM_PROFILE !== name)
    ctx.info(`PLATFORM_PROFILE=${ctx.env.PLATFORM_PROFILE} is set in this shell and still wins over the default.`);
}
