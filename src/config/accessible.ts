// Accessible mode, from where a user may ask for it: --accessible, else PLATFORM_ACCESSIBLE
// (1/true/yes/on; 0/false/no/off turns off what the profile says), else the profile's
// `accessible` setting (`platform config set accessible true`).
import { switchOf } from '../base/env-switch.js';
import type { Env } from '../base/io.js';
import type { Profile } from './profile.js';
import type { Sourced } from './resolve.js';

/** What the flag and the environment say; undefined when neither does (the profile then decides). */
export function accessibleAsked(flag: boolean | undefined, env: Env): boolean | undefined {
  if (flag) return true;
  const value = env.PLATFORM_ACCESSIBLE?.trim();
  if (!value) return undefined;
  // Any other word turns it on: only an explicit no turns off what the profile says.
  return switchOf(value) ?? true;
}

/** The profile's own setting. */
export function accessibleOfProfile(profile: Profile | undefined): boolean {
  return profile?.accessible === 'true';
}

export const ACCESSIBLE_VALUES = ['true', 'false'] as const;

/** The value in effect without the flag and where it comes from (`config get`, `config list`); undefined when nothing says. */
export function accessibleOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  const asked = accessibleAsked(false, env);
  if (asked !== undefined) return { value: String(asked), source: { kind: 'env', name: 'PLATFORM_ACCESSIBLE' } };
  return profile?.accessible === undefined ? undefined : { value: profile.accessible, source: { kind: 'profile', name: 'accessible' } };
}
