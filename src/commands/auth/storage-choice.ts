// Where `auth login` and `auth migrate` keep a profile's secrets: the mode in effect
// (--secure-storage, else PLATFORM_SECURE_STORAGE, else the profile's secure_storage, else
// auto: secureStorageOf in config/resolve.ts), then the keyring or the file (README, Credentials).
import type { Context } from '../../context.js';
import type { ConfigStore } from '../../config/store.js';
import type { Profile, SecretsPlace } from '../../config/profile.js';
import { KeyringUnavailableError, SECURE_STORAGE_CHOICES, type SecureStorage } from '../../config/secret-store.js';
import { secureStorageOf, sourceText } from '../../config/resolve.js';
import { UsageError } from '../../base/errors.js';

/** What to install or set when no keyring answers: named in the refusal and the warning. */
const KEYRING_HELP =
  'start and unlock a Secret Service (gnome-keyring, KeePassXC) in this session, or use --secure-storage file (PLATFORM_SECURE_STORAGE=file); in CI, PLATFORM_TOKEN needs no stored secret';

/** The mode in effect (config/resolve.ts says which wins); a usage error naming its source when it is none of the choices. */
export function secureStorageMode(ctx: Context, profile: Profile | undefined, flag: string | undefined): SecureStorage {
  const { value, source } = secureStorageOf(ctx.env, profile, flag);
  if (!(SECURE_STORAGE_CHOICES as readonly string[]).includes(value)) {
    throw new UsageError(`${sourceText(source)} must be one of ${SECURE_STORAGE_CHOICES.join(', ')}, not ${JSON.stringify(value)}`);
  }
  return value as SecureStorage;
}

export interface SecretsChoice {
  place: SecretsPlace;
  /** Said once the secrets are stored (auto without a keyring): one line naming the reason. */
  warning?: string;
}

/**
 * The place for a profile's secrets under `mode`: the keyring when it answers; else, for
 * auto, the 0600 file with one warning line naming the reason; for require, exit 4.
 */
export async function chooseSecretsPlace(store: ConfigStore, name: string, mode: SecureStorage): Promise<SecretsChoice> {
  if (mode === 'file') return { place: 'file' };
  const answer = await (await store.keyring()).check();
  if (answer.ok) return { place: 'keyring' };
  if (mode === 'require') {
    throw new KeyringUnavailableError(
      answer.reason,
      `no OS keyring answered (${answer.reason}), and --secure-storage require refuses to keep the secrets of profile ${name} in a file: ${KEYRING_HELP}`,
    );
  }
  return {
    place: 'file',
    warning: `Warning: no OS keyring answered (${answer.reason}), so the secrets of profile ${name} are kept in ${store.path} (mode 0600); --secure-storage require refuses that, --secure-storage file skips the keyring.`,
  };
}
