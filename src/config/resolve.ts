// Which profile a command uses and which of its settings win, worked out in one place:
// a flag over its environment variable over the stored profile. The factory, `auth login`,
// `auth status` and `webhooks` all ask here, so they can never disagree.
import type { Env } from '../base/io.js';
import type { Profile } from './profile.js';
import { SANDBOX_DEFAULT_URL, SANDBOX_PORT_ENV, sandboxDefaultUrl } from '../schemas/sandbox.js';

export interface ProfileChoice {
  name: string;
  /** Why this profile: --profile, PLATFORM_PROFILE, or the stored default. */
  source: 'flag' | 'env' | 'default';
}

/** --profile, else $PLATFORM_PROFILE, else the stored default (the local sandbox when none). */
export function chooseProfile(flag: string | undefined, env: Env, storedDefault: string): ProfileChoice {
  if (flag) return { name: flag, source: 'flag' };
  if (env.PLATFORM_PROFILE) return { name: env.PLATFORM_PROFILE, source: 'env' };
  return { name: storedDefault, source: 'default' };
}

/** A value with the name of where it came from (for messages; secrets are never shown). */
export interface Sourced {
  value: string;
  source: string;
}

/** The API base URL: $PLATFORM_BASE_URL over the profile's. */
export function baseUrlOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  if (env.PLATFORM_BASE_URL) return { value: env.PLATFORM_BASE_URL, source: 'env PLATFORM_BASE_URL' };
  // A profile of the local sandbox follows PLATFORM_SANDBOX_PORT.
  if (profile?.base_url === SANDBOX_DEFAULT_URL) return { value: sandboxDefaultUrl(env), source: env[SANDBOX_PORT_ENV] ? `env ${SANDBOX_PORT_ENV}` : 'config' };
  if (profile?.base_url) return { value: profile.base_url, source: 'config' };
  return undefined;
}

/** The token and authorize endpoints: $PLATFORM_AUTH_URL over the profile's, else the base URL. */
export function authUrlOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  if (env.PLATFORM_AUTH_URL) return { value: env.PLATFORM_AUTH_URL, source: 'env PLATFORM_AUTH_URL' };
  if (profile?.auth_url) return { value: profile.auth_url, source: 'config' };
  return baseUrlOf(env, profile);
}

/** The rider API: $PLATFORM_RIDER_URL over the profile's, else the base URL. */
export function riderUrlOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  if (env.PLATFORM_RIDER_URL) return { value: env.PLATFORM_RIDER_URL, source: 'env PLATFORM_RIDER_URL' };
  if (profile?.rider_url) return { value: profile.rider_url, source: 'config' };
  return baseUrlOf(env, profile);
}

/** The OAuth client id: a flag over $PLATFORM_CLIENT_ID over the profile's. */
export function clientIdOf(env: Env, profile: Profile | undefined, flag?: string): Sourced | undefined {
  if (flag) return { value: flag, source: '--client-id' };
  if (env.PLATFORM_CLIENT_ID) return { value: env.PLATFORM_CLIENT_ID, source: 'env PLATFORM_CLIENT_ID' };
  if (profile?.client_id) return { value: profile.client_id, source: 'config' };
  return undefined;
}

/** The client secret: $PLATFORM_CLIENT_SECRET over the profile's (never a flag). */
export function clientSecretOf(env: Env, profile: Profile | undefined, profileName: string): Sourced | undefined {
  if (env.PLATFORM_CLIENT_SECRET) return { value: env.PLATFORM_CLIENT_SECRET, source: 'PLATFORM_CLIENT_SECRET' };
  if (profile?.client_secret) return { value: profile.client_secret, source: `the client secret of profile ${profileName}` };
  return undefined;
}

/** The ad account: --account over $PLATFORM_ACCOUNT over the profile's (`platform config set account`). */
export function accountOf(env: Env, profile: Profile | undefined, flag?: string): Sourced | undefined {
  if (flag) return { value: flag, source: '--account' };
  if (env.PLATFORM_ACCOUNT) return { value: env.PLATFORM_ACCOUNT, source: 'env PLATFORM_ACCOUNT' };
  if (profile?.account) return { value: profile.account, source: 'config' };
  return undefined;
}

/** A CA bundle to trust besides Node's roots: --ca-file over $PLATFORM_CA_FILE over the profile's ca_file. */
export function caFileOf(env: Env, profile: Profile | undefined, flag?: string): Sourced | undefined {
  if (flag) return { value: flag, source: '--ca-file' };
  if (env.PLATFORM_CA_FILE) return { value: env.PLATFORM_CA_FILE, source: 'env PLATFORM_CA_FILE' };
  if (profile?.ca_file) return { value: profile.ca_file, source: 'config' };
  return undefined;
}
