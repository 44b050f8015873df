// Which profile a command uses and which of its settings win, worked out in one place:
// a flag over its environment variable over the stored profile. The factory, `auth login`,
// `auth status` and `webhooks` all ask here, so they can never disagree.
import type { Env } from '../base/io.js';
import type { Profile } from './profile.js';
import { SANDBOX_DEFAULT_URL, SANDBOX_PORT_ENV, sandboxDefaultUrl } from '../schemas/sandbox.js';

/** Where a value came from: a flag, an environment variable, the profile, or a default. */
export type SourceKind = 'flag' | 'env' | 'profile' | 'default';

export interface Source<K extends SourceKind = SourceKind> {
  readonly kind: K;
  /** The flag (`--account`), the variable (`PLATFORM_ACCOUNT`), the profile's setting (`account`), or what the default is. */
  readonly name: string;
  /** Of a profile's setting: the profile's name, where messages name it. */
  readonly profile?: string;
}

/** A value with where it came from (for messages; secrets are never shown). */
export interface Sourced {
  value: string;
  source: Source;
}

/**
 * How output names a source. `phrase`, in messages: the flag, the variable, or the profile's
 * setting in words ("the config of profile work"). `label`, in a SOURCE column
 * (`config list`, `auth status`): the flag, `env VARIABLE`, or `config`.
 */
export function sourceText(source: Source, form: 'phrase' | 'label' = 'phrase'): string {
  if (form === 'label') {
    if (source.kind === 'env') return `env ${source.name}`;
    if (source.kind === 'profile') return 'config';
  }
  if (source.kind !== 'profile') return source.name;
  if (source.name === 'ca_file') return "the profile's ca_file";
  if (source.profile === undefined) return `the profile setting ${source.name}`;
  return `the ${source.name === 'client_secret' ? 'client secret' : 'config'} of profile ${source.profile}`;
}

const fromFlag = (name: string): Source<'flag'> => ({ kind: 'flag', name });
const fromEnv = (name: string): Source<'env'> => ({ kind: 'env', name });
const fromProfile = (name: keyof Profile, profile?: string): Source<'profile'> => ({ kind: 'profile', name, ...(profile === undefined ? {} : { profile }) });

/** The first candidate with a value (an empty string is none). */
function firstOf(...candidates: ReadonlyArray<readonly [value: string | undefined, source: Source]>): Sourced | undefined {
  for (const [value, source] of candidates) if (value) return { value, source };
  return undefined;
}

export interface ProfileChoice {
  name: string;
  /** Why this profile: --profile, PLATFORM_PROFILE, or the stored default. */
  source: Source<'flag' | 'env' | 'default'>;
}

/** --profile, else $PLATFORM_PROFILE, else the stored default (the local sandbox when none). */
export function chooseProfile(flag: string | undefined, env: Env, storedDefault: string): ProfileChoice {
  if (flag) return { name: flag, source: fromFlag('--profile') };
  if (env.PLATFORM_PROFILE) return { name: env.PLATFORM_PROFILE, source: fromEnv('PLATFORM_PROFILE') };
  return { name: storedDefault, source: { kind: 'default', name: 'the default profile' } };
}

/** The API base URL: $PLATFORM_BASE_URL over the profile's. */
export function baseUrlOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  if (env.PLATFORM_BASE_URL) return { value: env.PLATFORM_BASE_URL, source: fromEnv('PLATFORM_BASE_URL') };
  // A profile of the local sandbox follows PLATFORM_SANDBOX_PORT.
  if (profile?.base_url === SANDBOX_DEFAULT_URL)
    return { value: sandboxDefaultUrl(env), source: env[SANDBOX_PORT_ENV] ? fromEnv(SANDBOX_PORT_ENV) : fromProfile('base_url') };
  return firstOf([profile?.base_url, fromProfile('base_url')]);
}

/** The token and authorize endpoints: $PLATFORM_AUTH_URL over the profile's, else the base URL. */
export function authUrlOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  return firstOf([env.PLATFORM_AUTH_URL, fromEnv('PLATFORM_AUTH_URL')], [profile?.auth_url, fromProfile('auth_url')]) ?? baseUrlOf(env, profile);
}

/** The rider API: $PLATFORM_RIDER_URL over the profile's, else the base URL. */
export function riderUrlOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  return firstOf([env.PLATFORM_RIDER_URL, fromEnv('PLATFORM_RIDER_URL')], [profile?.rider_url, fromProfile('rider_url')]) ?? baseUrlOf(env, profile);
}

/** The origin report files are fetched from: $PLATFORM_DOWNLOAD_URL over the profile's; absent: the report URL's own. */
export function downloadUrlOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  return firstOf([env.PLATFORM_DOWNLOAD_URL, fromEnv('PLATFORM_DOWNLOAD_URL')], [profile?.download_url, fromProfile('download_url')]);
}

/** The OAuth client id: a flag over $PLATFORM_CLIENT_ID over the profile's. */
export function clientIdOf(env: Env, profile: Profile | undefined, flag?: string): Sourced | undefined {
  return firstOf([flag, fromFlag('--client-id')], [env.PLATFORM_CLIENT_ID, fromEnv('PLATFORM_CLIENT_ID')], [profile?.client_id, fromProfile('client_id')]);
}

/** The client secret: $PLATFORM_CLIENT_SECRET over the profile's (never a flag). */
export function clientSecretOf(env: Env, profile: Profile | undefined, profileName: string): Sourced | undefined {
  return firstOf([env.PLATFORM_CLIENT_SECRET, fromEnv('PLATFORM_CLIENT_SECRET')], [profile?.client_secret, fromProfile('client_secret', profileName)]);
}

/** The ad account: --account over $PLATFORM_ACCOUNT over the profile's (`platform config set account`). */
export function accountOf(env: Env, profile: Profile | undefined, flag?: string, profileName?: string): Sourced | undefined {
  return firstOf([flag, fromFlag('--account')], [env.PLATFORM_ACCOUNT, fromEnv('PLATFORM_ACCOUNT')], [profile?.account, fromProfile('account', profileName)]);
}

/** The ad account of a command: as accountOf, reading the profile only when --account is not given and $PLATFORM_ACCOUNT is not set. */
export async function commandAccountOf(
  env: Env,
  flag: string | undefined,
  profile: () => Promise<{ name: string; profile: Profile | undefined }>,
): Promise<Sourced | undefined> {
  if (flag !== undefined || env.PLATFORM_ACCOUNT) return accountOf(env, undefined, flag);
  const chosen = await profile();
  return accountOf(env, chosen.profile, undefined, chosen.name);
}

/** A CA bundle to trust besides Node's roots: --ca-file over $PLATFORM_CA_FILE over the profile's ca_file. */
export function caFileOf(env: Env, profile: Profile | undefined, flag?: string): Sourced | undefined {
  return firstOf([flag, fromFlag('--ca-file')], [env.PLATFORM_CA_FILE, fromEnv('PLATFORM_CA_FILE')], [profile?.ca_file, fromProfile('ca_file')]);
}

/**
 * Where `auth login` and `auth migrate` keep a profile's secrets: --secure-storage over
 * $PLATFORM_SECURE_STORAGE over the profile's secure_storage, else auto (README, Credentials).
 * Not checked here: the value may be none of auto, require, file.
 */
export function secureStorageOf(env: Env, profile: Profile | undefined, flag?: string): Sourced {
  const given = firstOf([flag, fromFlag('--secure-storage')], [env.PLATFORM_SECURE_STORAGE, fromEnv('PLATFORM_SECURE_STORAGE')]);
  if (given) return given;
  // The profile's, even empty: a broken setting is refused, not passed over (null, in a file edited by hand, is none).
  const stored: string | undefined = profile?.secure_storage ?? undefined;
  return stored === undefined ? { value: 'auto', source: { kind: 'default', name: 'auto' } } : { value: stored, source: fromProfile('secure_storage') };
}
