// A login that fails (a refused token or secret, an abandoned or denied sign-in, Ctrl-C) leaves
// no profile behind that it created: a login stores a new profile's addresses and client
// before it asks the server (the client is built from them), and without this a refused
// `auth login --with-token --profile ci` left a stub `ci`, and a wrong client secret stayed
// stored. A profile that was there before keeps what it had (its tokens stay until a new
// sign-in succeeds).
import type { ConfigStore } from '../../config/store.js';
import { keyringKinds } from '../../config/secret-store.js';
import type { Profile } from '../../config/profile.js';

/** Runs the login `attempt` for profile `name`; when it throws, removes the profile if the attempt created it. */
export async function removedIfFailed<T>(store: ConfigStore, name: string, attempt: () => Promise<T>): Promise<T> {
  const existed = store.storedProfileNames().includes(name);
  try {
    return await attempt();
  } catch (error) {
    if (!existed && store.storedProfileNames().includes(name)) {
      // The login's own error is what the user needs to see; a failed clean-up does not replace it.
      await removeStub(store, name).catch(() => {});
    }
    throw error;
  }
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
