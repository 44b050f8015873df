// Where a profile's secrets live (README, Credentials): the OS keyring, or the 0600 config
// file. The config file always holds the profile's other settings and, for a keyring
// profile, only a reference (`"secrets": "keyring"` and the names of what the keyring holds).
import { AuthError } from '../base/errors.js';
import { SECRET_KINDS, type Profile, type SecretKind, type SecretsPlace } from './profile.js';

export { SECRET_KINDS, type SecretKind, type SecretsPlace };

/** How `auth login` may store secrets: the keyring else the file with a warning, the keyring only, or the file only. */
export type SecureStorage = 'auto' | 'require' | 'file';
export const SECURE_STORAGE_CHOICES: readonly SecureStorage[] = ['auto', 'require', 'file'];

/** Secret values by kind; a kind that is absent has none. */
export type SecretValues = Partial<Record<SecretKind, string>>;

/**
 * A place for secrets, by profile and kind. Several at once, because each keyring visit is a
 * round trip to another process; `set` with undefined deletes. Both read back what they wrote.
 */
export interface SecretStore {
  readonly place: SecretsPlace;
  get(profile: string, kinds: readonly SecretKind[]): Promise<SecretValues>;
  set(profile: string, values: Partial<Record<SecretKind, string | undefined>>): Promise<void>;
  /** Whether the store answers now; the reason in words when it does not. */
  check(): Promise<{ ok: true } | { ok: false; reason: string }>;
}

/** The keyring did not answer, or did not keep what it was given: exit 4, the reason in words. */
export class KeyringUnavailableError extends AuthError {
  constructor(
    readonly reason: string,
    message = `the OS keyring did not answer: ${reason}`,
  ) {
    super(message);
    this.name = 'KeyringUnavailableError';
  }
}

/** The secret values of a profile as the config object holds them. */
export function secretsIn(profile: Profile | undefined): SecretValues {
  const values: SecretValues = {};
  if (profile?.client_secret) values.client_secret = profile.client_secret;
  if (profile?.token?.access_token) values.access_token = profile.token.access_token;
  if (profile?.token?.refresh_token) values.refresh_token = profile.token.refresh_token;
  return values;
}

/** The profile without its secret values (what a keyring profile keeps in the file). */
export function withoutSecrets(profile: Profile): Profile {
  const next: Profile = { ...profile };
  delete next.client_secret;
  if (next.token) {
    const token = { ...next.token };
    delete (token as Partial<typeof token>).access_token;
    delete token.refresh_token;
    next.token = token;
  }
  return next;
}

/** The profile with `values` put back where the config object keeps them. */
export function withSecrets(profile: Profile, values: SecretValues): Profile {
  const next: Profile = { ...profile };
  if (values.client_secret) next.client_secret = values.client_secret;
  if (next.token) {
    next.token = { ...next.token };
    if (values.access_token) next.token.access_token = values.access_token;
    if (values.refresh_token) next.token.refresh_token = values.refresh_token;
  }
  return next;
}

/** Where a profile's stored secrets are: the keyring, the file, or nowhere (none stored). */
export function secretsPlaceOf(profile: Profile | undefined): SecretsPlace | 'none' {
  if (profile?.secrets === 'keyring') return profile.keyring_secrets?.length ? 'keyring' : 'none';
  return Object.keys(secretsIn(profile)).length ? 'file' : 'none';
}

/** The kinds a keyring profile's reference names, in a stable order. */
export function keyringKinds(profile: Profile | undefined): SecretKind[] {
  return SECRET_KINDS.filter((kind) => profile?.keyring_secrets?.includes(kind));
}
