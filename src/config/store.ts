// Profiles and cached tokens in one JSON file, mode 0600 in a 0700 directory. Writes go
// through conf (atomic writes, file mode); reads parse the same file directly, because
// loading conf (and its JSON-schema validator) costs ~90 ms that a read-only call such as
// `ads campaigns list` with a cached token should not pay.
import fs from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import { UsageError } from '../errors.js';
import { builtinProfiles, LOCAL_PROFILE, type Profile } from './profile.js';

interface ConfigShape {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

export class ConfigStore {
  readonly path: string;
  #cache: ConfigShape | undefined;
  #conf: Promise<Conf<ConfigShape>> | undefined;

  constructor(readonly dir: string) {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    fs.chmodSync(dir, 0o700);
    this.path = path.join(dir, 'config.json');
  }

  /** The profile used when none is named: the last one logged in to, else the local sandbox. */
  get defaultProfile(): string {
    return this.#read().default_profile ?? LOCAL_PROFILE;
  }

  async setDefaultProfile(name: string): Promise<void> {
    (await this.#writer()).set('default_profile', name);
    this.#cache = undefined;
  }

  profileNames(): string[] {
    return [...new Set([...Object.keys(builtinProfiles), ...Object.keys(this.#read().profiles)])].sort();
  }

  /** A stored profile merged over its built-in defaults; undefined when neither exists. */
  getProfile(name: string): Profile | undefined {
    const stored = this.#read().profiles[name];
    const builtin = builtinProfiles[name];
    if (!stored && !builtin) return undefined;
    return { ...builtin, ...stored };
  }

  /** Merges `patch` into the stored profile; keys set to undefined are removed. */
  async updateProfile(name: string, patch: Partial<Profile>): Promise<void> {
    const conf = await this.#writer();
    const profiles = { ...conf.get('profiles') };
    const next: Profile = { ...profiles[name], ...patch };
    for (const key of Object.keys(next) as Array<keyof Profile>) if (next[key] === undefined) delete next[key];
    profiles[name] = next;
    conf.set('profiles', profiles);
    this.#cache = undefined;
  }

  async deleteProfile(name: string): Promise<void> {
    const conf = await this.#writer();
    const profiles = { ...conf.get('profiles') };
    delete profiles[name];
    conf.set('profiles', profiles);
    this.#cache = undefined;
  }

  #read(): ConfigShape {
    if (this.#cache) return this.#cache;
    let text: string;
    try {
      text = fs.readFileSync(this.path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return (this.#cache = { profiles: {} });
      throw error;
    }
    try {
      const parsed = JSON.parse(text) as Partial<ConfigShape>;
      this.#cache = { ...parsed, profiles: parsed.profiles ?? {} };
    } catch {
      throw new UsageError(`the config file ${this.path} is not valid JSON; fix or remove it`);
    }
    return this.#cache;
  }

  #writer(): Promise<Conf<ConfigShape>> {
    this.#conf ??= import('conf').then(
      ({ default: ConfClass }) =>
        new ConfClass<ConfigShape>({ cwd: this.dir, configName: 'config', configFileMode: 0o600, defaults: { profiles: {} }, projectSuffix: '' }),
    );
    return this.#conf;
  }
}
