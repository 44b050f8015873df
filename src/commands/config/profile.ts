// The profile a config command reads or writes: the one --profile, PLATFORM_PROFILE or the
// default picks, and only one that exists (a typo in --profile must not create a profile).
import type { Context } from '../../context.js';
import type { ConfigStore } from '../../config/store.js';
import { UsageError } from '../../base/errors.js';

export async function existingProfile(ctx: Context): Promise<{ store: ConfigStore; name: string }> {
  const [store, { name }] = await Promise.all([ctx.config(), ctx.profile()]);
  if (!store.getProfile(name)) throw new UsageError(`no profile named ${name}; the profiles are ${store.profileNames().join(', ')}`);
  return { store, name };
}
