// Profiles and cached tokens in one JSON file (conf), mode 0600 in a 0700 directory.
import fs from 'node:fs';
import Conf from 'conf';
import { builtinProfiles, LOCAL_PROFILE, type Profile } from './profile.js';

interface ConfigShape {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

export class ConfigStore {
  readonly #conf: Conf<ConfigShape>;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    this.#conf = new Conf<ConfigShape>({
      cwd: dir,
      configName: 'config',
      configFileMode: 0o600,
      defaults: { profiles: {} },
      projectSuffix: '',
    });
  }

  get path(): string {
    return this.#conf.path;
  }

  /** The profile used when none is named: the last one logged in to, else the local sandbox. */
  get defaultProfile(): string {
    return this.#conf.get('default_profile') ?? LOCAL_PROFILE;
  }

  set defaultProfile(name: string) {
    this.#conf.set('default_profile', name);
  }

  profileNames(): string[] {
    return [...new Set([...Object.keys(builtinProfiles), ...Object.keys(this.#conf.get('profiles'))])].sort();
  }

  /** A stored profile merged over its built-in defaults; undefined when neither exists. */
  getProfile(name: string): Profile | undefined {
    const stored = this.#conf.get('profiles')[name];
    const builtin = builtinProfiles[name];
    if (!stored && !builtin) return undefined;
    return { ...builtin, ...stored };
  }

  /** Merges `patch` into the stored profile; keys set to undefined are removed. */
  updateProfile(name: string, patch: Partial<Profile>): void {
    const profiles = { ...this.#conf.get('profiles') };
    const next: Profile = { ...profiles[name], ...patch };
    for (const key of Object.keys(next) as Array<keyof Profile>) if (next[key] === undefined) delete next[key];
    profiles[name] = next;
    this.#conf.set('profiles', profiles);
  }

  deleteProfile(name: string): void {
    const profiles = { ...this.#conf.get('profiles') };
    delete profiles[name];
    this.#conf.set('profiles', profiles);
  }
}
