// The settings `platform config` knows: each is a field of the profile, with the environment
// variable that overrides it and the check its value must pass. Data only.
import type { Env } from '../../base/io.js';
import type { Profile } from '../../config/profile.js';
import { accountOf, caFileOf, secureStorageOf, type Sourced } from '../../config/resolve.js';
import { idProblem } from '../../schemas/ids.js';
import { SECURE_STORAGE_CHOICES } from '../../config/secret-store.js';

import type { SettingKey } from './settings-spec.js';

export interface Setting {
  /** Why a value cannot be stored, or undefined when it can. */
  problem: (value: string) => string | undefined;
  /** The value in effect without a flag, and where it comes from (env or config). */
  effective: (env: Env, profile: Profile | undefined) => Sourced | undefined;
  env: string;
}

export const SETTINGS: Record<SettingKey, Setting> = {
  account: {
    problem: (value) => {
      const problem = idProblem(value);
      return problem && `the id ${problem}`;
    },
    effective: (env, profile) => accountOf(env, profile),
    env: 'PLATFORM_ACCOUNT',
  },
  ca_file: {
    // Stored as given and read when a command connects, so an absolute path means the same from any folder.
    problem: (value) => (value.startsWith('/') ? undefined : 'give the absolute path of a PEM bundle'),
    effective: (env, profile) => caFileOf(env, profile),
    env: 'PLATFORM_CA_FILE',
  },
  secure_storage: {
    // Where `auth login` keeps this profile's secrets when neither --secure-storage nor the env says (README, Credentials).
    problem: (value) => ((SECURE_STORAGE_CHOICES as readonly string[]).includes(value) ? undefined : `must be one of ${SECURE_STORAGE_CHOICES.join(', ')}`),
    effective: (env, profile) => {
      // auto when nothing says: shown as not set.
      const effective = secureStorageOf(env, profile);
      return effective.source.kind === 'default' || !effective.value ? undefined : effective;
    },
    env: 'PLATFORM_SECURE_STORAGE',
  },
};
