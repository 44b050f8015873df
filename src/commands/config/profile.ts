// The profile a config command reads or writes: the one --profile, PLATFORM_PROFILE or the
// default picks, and only one that exists (a typo in --profile must not create a profile).
import type { Context } from '../../context.js';
import type { ConfigStore } from '../../config/store.js';
import { UsageError } from '../../base/errors.js';
import { loginCommand } from '../advice.js';

export async function existingProfile(ctx: Context): Promise<{ store: ConfigStore; name: string }> {
  const [store, { name }] = await Promise.all([ctx.config(), ctx.profile()]);
  if (!store.getProfile(name)) throw unknownProfile(store, name);
  return { store, name };
}

/**
 * A profile that does not exist, named by --profile, PLATFORM_PROFILE or a stale default: exit 2
 * naming the profiles there are. Only `auth login` creates a profile (as `gh auth login` adds a
 * host): any other command would work on a typo. `create` adds the login that makes it.
 */
export function unknownProfile(store: ConfigStore, name: string, create = false): UsageError {
  const known = `the profiles are ${store.profileNames().join(', ')}`;
  const login = create ? `; run \`${loginCommand({ profile: name, grant: 'client_credentials' })}\` to create it` : '';
  return new UsageError(`no profile named ${name}; ${known}${login}`);
}
