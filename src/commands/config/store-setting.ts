// Storing or removing one setting of a profile. A token goes only to the hosts it was issued
// for: when base_url, rider_url or token_url changes, the profile's cached token is dropped
// (a command would otherwise send it, or its refresh token, to the new address).
import type { ConfigStore } from '../../config/store.js';
import { builtinProfiles, type Profile } from '../../config/profile.js';
import { loginCommand } from '../advice.js';
import { fieldOf, SETTINGS } from './settings.js';
import type { SettingKey } from './settings-spec.js';

/** Sets `key` to `value` (undefined removes it); resolves with a line saying what became of the profile's token, if it was dropped. */
export async function storeSetting(store: ConfigStore, name: string, key: SettingKey, value: string | undefined): Promise<string | undefined> {
  const field = fieldOf(key);
  const before = store.getProfile(name);
  // Removed from the local profile, its built-in value is in effect again.
  const after = value ?? builtinProfiles[name]?.[field];
  const dropToken = SETTINGS[key].credentialsGoThere === true && before?.[field] !== after && before?.token !== undefined;
  await store.updateProfile(name, { [field]: value, ...(dropToken ? { token: undefined } : {}) });
  return dropToken ? droppedTokenLine(name, before) : undefined;
}

function droppedTokenLine(name: string, before: Profile | undefined): string {
  const grant = before?.token?.grant ?? before?.grant ?? 'client_credentials';
  if (grant === 'client_credentials') return 'Its cached token was for the old address and was removed; the next command gets a new one.';
  return `Its token was for the old address and was removed; run \`${loginCommand({ profile: name, grant })}\` to sign in there.`;
}
