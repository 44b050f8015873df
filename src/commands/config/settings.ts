// The settings `platform config` knows: each is a field of the profile, with the environment
// variable that overrides it and the check its value must pass. Data only.
import type { Env } from '../../base/io.js';
import type { Profile } from '../../config/profile.js';
import { accountOf, authUrlOf, baseUrlOf, caFileOf, downloadUrlOf, riderUrlOf, secureStorageOf, type Sourced } from '../../config/resolve.js';
import { idProblem } from '../../schemas/ids.js';
import { urlProblem } from '../../config/url-setting.js';
import { SECURE_STORAGE_CHOICES } from '../../config/secret-store.js';
import { ACCESSIBLE_VALUES, accessibleOf } from '../../config/accessible.js';
import { csvDecimalCommaOf, csvDelimiterOf, DECIMAL_COMMA_VALUES } from '../../config/csv-dialect.js';
import { DELIMITER_CHOICES, delimiterOf } from '../../base/csv-dialect.js';

import type { SettingKey } from './settings-spec.js';

export interface Setting {
  /** The profile's field that keeps it when not the key's name (token_url is auth_url, which `auth login --auth-url` writes). */
  field?: keyof Profile;
  /** Why a value cannot be stored, or undefined when it can. */
  problem: (value: string) => string | undefined;
  /** The value in effect without a flag, and where it comes from (env or config). */
  effective: (env: Env, profile: Profile | undefined) => Sourced | undefined;
  env: string;
  /** An address the profile's credentials go to: a token cached for the old one is dropped when it changes. */
  credentialsGoThere?: true;
}

/** rider_url and token_url default to base_url: shown with that as their source. */
function orBaseUrl(own: Sourced | undefined, env: Env, profile: Profile | undefined, ownSources: (source: Sourced['source']) => boolean): Sourced | undefined {
  if (own && ownSources(own.source)) return own;
  const base = baseUrlOf(env, profile);
  return base && { value: base.value, source: { kind: 'default', name: 'base_url' } };
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
  base_url: {
    problem: urlProblem,
    effective: (env, profile) => baseUrlOf(env, profile),
    env: 'PLATFORM_BASE_URL',
    credentialsGoThere: true,
  },
  rider_url: {
    problem: urlProblem,
    effective: (env, profile) =>
      orBaseUrl(riderUrlOf(env, profile), env, profile, (source) => source.name === 'PLATFORM_RIDER_URL' || source.name === 'rider_url'),
    env: 'PLATFORM_RIDER_URL',
    credentialsGoThere: true,
  },
  // The token and authorize endpoints (spec 4.2's {auth_url}): the profile's auth_url.
  token_url: {
    field: 'auth_url',
    problem: urlProblem,
    effective: (env, profile) =>
      orBaseUrl(authUrlOf(env, profile), env, profile, (source) => source.name === 'PLATFORM_AUTH_URL' || source.name === 'auth_url'),
    env: 'PLATFORM_AUTH_URL',
    credentialsGoThere: true,
  },
  // Report files: the pre-signed report_url's path and query, fetched from this origin instead of its own.
  download_url: {
    problem: urlProblem,
    effective: (env, profile) => downloadUrlOf(env, profile),
    env: 'PLATFORM_DOWNLOAD_URL',
  },
  accessible: {
    // For screen readers (`platform help accessibility`); --accessible and PLATFORM_ACCESSIBLE win.
    problem: (value) => ((ACCESSIBLE_VALUES as readonly string[]).includes(value) ? undefined : `must be one of ${ACCESSIBLE_VALUES.join(', ')}`),
    effective: (env, profile) => accessibleOf(env, profile),
    env: 'PLATFORM_ACCESSIBLE',
  },
  // A team whose spreadsheets save with semicolons and 1.234,56 (platform help csv); the flags and the env win.
  csv_delimiter: {
    problem: (value) => (delimiterOf(value) ? undefined : `must be ${DELIMITER_CHOICES}`),
    effective: (env, profile) => csvDelimiterOf(env, profile),
    env: 'PLATFORM_CSV_DELIMITER',
  },
  csv_decimal_comma: {
    problem: (value) => ((DECIMAL_COMMA_VALUES as readonly string[]).includes(value) ? undefined : `must be one of ${DECIMAL_COMMA_VALUES.join(', ')}`),
    effective: (env, profile) => csvDecimalCommaOf(env, profile),
    env: 'PLATFORM_CSV_DECIMAL_COMMA',
  },
};

/** The profile's field that keeps a setting. */
export function fieldOf(key: SettingKey): keyof Profile {
  return SETTINGS[key].field ?? (key as keyof Profile);
}
