// A login that fails (a refused token or secret, an abandoned or denied sign-in, Ctrl-C) leaves
// the profiles as they were: a login stores the profile's addresses and client before it asks
// the server (the client is built from them), and without this a refused
// `auth login --with-token --profile ci` left a stub `ci`, a wrong client secret stayed stored,
// and a refused client-credentials login logged an existing profile out. A profile the login
// created is removed; one that was there gets back what it had, secrets included.
import type { ConfigStore } from '../../config/store.js';
import { keyringKinds, KeyringUnavailableError } from '../../config/secret-store.js';
import type { Profile } from '../../config/profile.js';

/** Runs the login `attempt` for profile `name`; when it throws, removes the profile if the attempt created it, else puts back what it had. */
export async function removedIfFailed<T>(store: ConfigStore, name: string, attempt: () => Promise<T>): Promise<T> {
  const existed = store.storedProfileNames().includes(name);
  const before = existed ? await storedProfile(store, name) : undefined;
  try {
    return await attempt();
  } catch (error) {
    // The login's own error is what the user needs to see; a failed clean-up does not replace it.
    if (!existed && store.storedProfileNames().includes(name)) await removeStub(store, name).catch(() => {});
    if (before) await restore(store, name, before).catch(() => {});
    throw error;
  }
}

/** The profile as stored, its keyring secrets read in; undefined when the keyring does not answer (nothing to put back then). */
async function storedProfile(store: ConfigStore, name: string): Promise<Profile | undefined> {
  try {
    return await store.transaction((config) => structuredClone(config.profiles[name]), { secretsOf: name });
  } catch (error) {
    if (error instanceof KeyringUnavailableError) return undefined;
    throw error;
  }
}

/** Puts `before` back as profile `name`, unless it holds another token by now: a login succeeded (another process's). */
async function restore(store: ConfigStore, name: string, before: Profile): Promise<void> {
  await store.transaction(
    (config) => {
      const now = config.profiles[name];
      if (now?.token?.access_token !== undefined && now.token.access_token !== before.token?.access_token) return;
      config.profiles[name] = before;
    },
    { secretsOf: name },
  );
}

/** Removes profile `name` with its secrets (file or keyring), unless it holds a token by now: a login succeeded (another process's). */
async function removeStub(store: ConfigStore, name: string): Promise<void> {
  await store.transaction((config) => {
    const profile = config.profiles[name];
    if (profile && !holdsToken(profile)) delete config.profiles[name];
  });
}

function holdsToken(profile: Profile): boolean {
  return profile.token?.access_token !== undefined || keyringKinds(profile).includes('access_token');
}
