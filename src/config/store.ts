// Profiles and cached tokens in one JSON file, mode 0600 in a 0700 directory.
//
// Reads parse the file directly: loading conf (and its JSON-schema validator) costs ~90 ms
// that a read-only call such as `ads campaigns list` with a cached token should not pay.
// Every read-modify-write is a transaction: it holds a cross-process lock (proper-lockfile),
// re-reads the file inside it, and writes through conf (atomic rename, file mode), so that
// concurrent `platform` processes never lose each other's profiles or tokens.
import fs from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import { UsageError } from '../errors.js';
import { builtinProfiles, LOCAL_PROFILE, type Profile } from './profile.js';

export interface ConfigShape {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

/** How long a lock may go without its holder touching it before another process takes it over (a killed holder). */
const STALE_LOCK_MS = 10_000;

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
    await this.transaction((config) => {
      config.default_profile = name;
    });
  }

  /** The profiles stored in the file (the built-in local one only once it holds something). */
  storedProfileNames(): string[] {
    return Object.keys(this.#read().profiles);
  }

  profileNames(): string[] {
    return [...new Set([...Object.keys(builtinProfiles), ...Object.keys(this.#read().profiles)])].sort();
  }

  /** A stored profile merged over its built-in defaults; undefined when neither exists. */
  getProfile(name: string): Profile | undefined {
    return mergedProfile(this.#read(), name);
  }

  /** Merges `patch` into the stored profile; keys set to undefined are removed. */
  async updateProfile(name: string, patch: Partial<Profile>): Promise<void> {
    await this.transaction((config) => patchProfile(config, name, patch));
  }

  async deleteProfile(name: string): Promise<void> {
    await this.transaction((config) => {
      delete config.profiles[name];
    });
  }

  /**
   * Runs `change` on the config as it is on disk now, under the cross-process lock, and
   * writes what it leaves. Everything that reads, decides and writes (a token refresh, a
   * login) goes through here; it is not re-entrant.
   */
  async transaction<T>(change: (config: ConfigShape) => T | Promise<T>): Promise<T> {
    const { default: lockfile } = await import('proper-lockfile');
    const release = await lockfile.lock(this.path, {
      realpath: false,
      stale: STALE_LOCK_MS,
      // Up to about a minute of waiting: a refresh holds the lock for one token request.
      retries: { retries: 300, minTimeout: 10, maxTimeout: 200, factor: 1.3, randomize: true },
    });
    try {
      // conf is created under the lock: its constructor may write the file (defaults).
      const conf = await this.#writer();
      this.#removeStaleTempFiles();
      this.#cache = undefined;
      const config = structuredClone(this.#read());
      const before = JSON.stringify(config);
      const result = await change(config);
      if (JSON.stringify(config) !== before) conf.store = config;
      this.#cache = undefined;
      return result;
    } finally {
      await release();
    }
  }

  /** The file as it is on disk now, past this process's cache. */
  readFromDisk(): ConfigShape {
    this.#cache = undefined;
    return this.#read();
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
    this.#restoreMode();
    try {
      const parsed = JSON.parse(text) as Partial<ConfigShape>;
      this.#cache = { ...parsed, profiles: parsed.profiles ?? {} };
    } catch {
      throw new UsageError(`the config file ${this.path} is not valid JSON; fix or remove it`);
    }
    return this.#cache;
  }

  /** A file made readable by others (copied, restored from a backup) is made private again when read. */
  #restoreMode(): void {
    try {
      if ((fs.statSync(this.path).mode & 0o077) !== 0) fs.chmodSync(this.path, 0o600);
    } catch {
      // Unreadable stat: the read that follows reports the real problem.
    }
  }

  /** Temp files of a write that was killed before its rename; under the lock no write is in progress. */
  #removeStaleTempFiles(): void {
    const prefix = `${path.basename(this.path)}.tmp-`;
    for (const name of fs.readdirSync(this.dir)) {
      if (name.startsWith(prefix)) fs.rmSync(path.join(this.dir, name), { force: true });
    }
  }

  #writer(): Promise<Conf<ConfigShape>> {
    this.#conf ??= import('conf').then(
      ({ default: ConfClass }) =>
        new ConfClass<ConfigShape>({ cwd: this.dir, configName: 'config', configFileMode: 0o600, defaults: { profiles: {} }, projectSuffix: '' }),
    );
    return this.#conf;
  }
}

/** A profile of a config, merged over its built-in defaults. */
export function mergedProfile(config: ConfigShape, name: string): Profile | undefined {
  const stored = config.profiles[name];
  const builtin = builtinProfiles[name];
  if (!stored && !builtin) return undefined;
  return { ...builtin, ...stored };
}

/** Merges `patch` into a profile of a config; keys set to undefined are removed. */
export function patchProfile(config: ConfigShape, name: string, patch: Partial<Profile>): void {
  const next: Profile = { ...config.profiles[name], ...patch };
  for (const key of Object.keys(next) as Array<keyof Profile>) if (next[key] === undefined) delete next[key];
  config.profiles[name] = next;
}
