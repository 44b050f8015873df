// Profiles and cached tokens in one JSON file, mode 0600 in a 0700 directory.
//
// Reads parse the file directly: loading conf (and its JSON-schema validator) costs ~90 ms
// that a read-only call such as `ads campaigns list` with a cached token should not pay.
// Every read-modify-write is a transaction: it holds a cross-process lock (proper-lockfile),
// re-reads the file inside it, and writes through conf (atomic rename, file mode), so that
// concurrent `platform` processes never lose each other's profiles or tokens.
//
// Reading never creates, chmods or writes anything, so a read-only config folder (a
// Kubernetes or CI mount) serves every command that needs no new token. A transaction
// reserves the space its write will need before it runs the change (README, Credentials):
// a token refresh retires the old refresh token, so the new one must have somewhere to go
// before it is asked for. A folder that cannot be written is one ConfigNotWritableError.
//
// Secrets (secret-store.ts): a profile whose `secrets` is "keyring" keeps its client secret
// and tokens in the OS keyring, and this file only the names of what is there. A
// transaction on such a profile reads them from the keyring under the lock, so that `change`
// sees the whole profile as before; what it leaves is put back where the profile says:
// keyring writes (each read back) before the file is written, keyring deletions after it,
// so that a secret is never in neither place.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type Conf from 'conf';
import { UsageError } from '../base/errors.js';
import { readStateFile, STATE_FILE_LIMITS } from '../base/state-file.js';
import { builtinProfiles, LOCAL_PROFILE, SECRET_KINDS, type Profile, type SecretKind } from './profile.js';
import { keyringKinds, KeyringUnavailableError, secretsIn, withoutSecrets, withSecrets, type SecretStore } from './secret-store.js';
import { asConfigWrite, toConfigNotWritable } from './write-failure.js';

export interface ConfigShape {
  default_profile?: string;
  profiles: Record<string, Profile>;
}

/** How long a lock may go without its holder touching it before another process takes it over (a killed holder). */
const STALE_LOCK_MS = 10_000;
/** Tries for a held lock, 10-400 ms apart: about a minute. */
const LOCK_ATTEMPTS = 300;
/** Room held for a transaction's write beyond the file's size now (a token entry is under 4 KiB). */
const RESERVE_EXTRA_BYTES = 16 << 10;

export interface ConfigStoreOptions {
  /** The OS keyring, created on first use (only profiles that keep their secrets there use it). */
  keyring?: () => Promise<SecretStore>;
}

export interface TransactionOptions {
  /** A profile whose keyring secrets `change` reads or writes: they are read into the config first. */
  secretsOf?: string;
}

export class ConfigStore {
  readonly path: string;
  #cache: ConfigShape | undefined;
  #conf: Promise<Conf<ConfigShape>> | undefined;
  #keyring: Promise<SecretStore> | undefined;

  constructor(
    readonly dir: string,
    private readonly options: ConfigStoreOptions = {},
  ) {
    this.path = path.join(dir, 'config.json');
  }

  /** The OS keyring of this config; a KeyringUnavailableError when there is none to ask. */
  keyring(): Promise<SecretStore> {
    const make = this.options.keyring;
    if (!make) return Promise.reject(new KeyringUnavailableError('this build has no keyring support'));
    this.#keyring ??= make();
    return this.#keyring;
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

  /**
   * The profile with its secrets, wherever they are kept: a keyring profile asks the keyring
   * (a KeyringUnavailableError, exit 4, when it does not answer).
   */
  async getProfileWithSecrets(name: string): Promise<Profile | undefined> {
    const profile = this.getProfile(name);
    if (profile?.secrets !== 'keyring') return profile;
    return withSecrets(profile, await this.#readKeyring(name, profile));
  }

  /** Merges `patch` into the stored profile; keys set to undefined are removed. */
  async updateProfile(name: string, patch: Partial<Profile>): Promise<void> {
    await this.transaction((config) => patchProfile(config, name, patch), { secretsOf: name });
  }

  async deleteProfile(name: string): Promise<void> {
    await this.transaction(
      (config) => {
        delete config.profiles[name];
      },
      { secretsOf: name },
    );
  }

  /**
   * Runs `change` on the config as it is on disk now, under the cross-process lock, and
   * writes what it leaves. Everything that reads, decides and writes (a token refresh, a
   * login) goes through here; it is not re-entrant.
   */
  async transaction<T>(change: (config: ConfigShape) => T | Promise<T>, options: TransactionOptions = {}): Promise<T> {
    const what = `the config file ${this.path}`;
    asConfigWrite(`the config folder ${this.dir}`, this.dir, () => this.#makeDir());
    const release = await this.#lock().catch((error: unknown) => {
      throw toConfigNotWritable(error, what, this.dir);
    });
    let reserved: string | undefined;
    try {
      this.#removeStaleTempFiles();
      this.#cache = undefined;
      const config = structuredClone(this.#read());
      const before = JSON.stringify(config);
      reserved = asConfigWrite(what, this.dir, () => this.#reserve());
      // conf is created under the lock: its constructor may write the file (defaults).
      const conf = await this.#writer();
      const read = options.secretsOf;
      const withKeyring = read !== undefined && config.profiles[read]?.secrets === 'keyring' ? read : undefined;
      if (withKeyring)
        config.profiles[withKeyring] = withSecrets(config.profiles[withKeyring]!, await this.#readKeyring(withKeyring, config.profiles[withKeyring]));
      const prior = structuredClone(config.profiles);
      const result = await change(config);
      const deleteAfterWrite = await this.#placeSecrets(config, prior, withKeyring);
      if (JSON.stringify(config) !== before) {
        // The reserved space goes back just before the write that needs it.
        this.#unreserve(reserved);
        reserved = undefined;
        asConfigWrite(what, this.dir, () => {
          conf.store = config;
        });
      }
      this.#cache = undefined;
      for (const [name, kinds] of deleteAfterWrite) await (await this.keyring()).set(name, Object.fromEntries(kinds.map((kind) => [kind, undefined])));
      return result;
    } finally {
      if (reserved) this.#unreserve(reserved);
      // A folder that became read-only keeps the lock; the next transaction takes it over as stale.
      await release().catch(() => {});
    }
  }

  async #readKeyring(name: string, profile: Profile | undefined) {
    try {
      return await (await this.keyring()).get(name, keyringKinds(profile));
    } catch (error) {
      if (!(error instanceof KeyringUnavailableError)) throw error;
      throw new KeyringUnavailableError(
        error.reason,
        `the secrets of profile ${name} are in the OS keyring, which did not answer: ${error.reason}; unlock or start the keyring, or set PLATFORM_TOKEN`,
      );
    }
  }

  /**
   * Puts each profile's secrets where its `secrets` says, after `change`: a keyring profile's
   * new or changed secrets are written to the keyring (and read back) now, and only their
   * names stay in `config`. What must leave the keyring (a logout, a profile moved to the
   * file or removed) is returned, to be deleted once the file no longer needs it gone.
   * `read` is the profile whose keyring secrets were read into `config`; the others' are
   * unknown, so only what `change` set on them is written.
   */
  async #placeSecrets(config: ConfigShape, prior: Record<string, Profile>, read: string | undefined): Promise<Map<string, SecretKind[]>> {
    const deleteAfterWrite = new Map<string, SecretKind[]>();
    for (const name of new Set([...Object.keys(prior), ...Object.keys(config.profiles)])) {
      const before = prior[name];
      const next = config.profiles[name];
      const wasKeyring = before?.secrets === 'keyring';
      if (next?.secrets !== 'keyring') {
        if (next) delete next.keyring_secrets;
        if (!wasKeyring) continue;
        // Out of the keyring: into the file (a profile moved: its secrets were read first) or gone.
        if (next && name !== read) throw new Error(`profile ${name} left the keyring without its secrets being read`);
        if (keyringKinds(before).length) deleteAfterWrite.set(name, keyringKinds(before));
        continue;
      }
      const known = wasKeyring && name === read;
      const had = wasKeyring ? (known ? secretsIn(before) : {}) : {};
      const now = secretsIn(next);
      const writes: Partial<Record<SecretKind, string | undefined>> = {};
      for (const kind of SECRET_KINDS) {
        if (now[kind] !== undefined && now[kind] !== had[kind]) writes[kind] = now[kind];
        else if (known && now[kind] === undefined && keyringKinds(before).includes(kind)) writes[kind] = undefined;
      }
      if (Object.keys(writes).length) await (await this.keyring()).set(name, writes);
      const held = SECRET_KINDS.filter((kind) => now[kind] !== undefined || (wasKeyring && !known && keyringKinds(before).includes(kind)));
      const stripped = withoutSecrets(next);
      if (held.length) stripped.keyring_secrets = held;
      else delete stripped.keyring_secrets;
      config.profiles[name] = stripped;
    }
    return deleteAfterWrite;
  }

  /** The file as it is on disk now, past this process's cache. */
  readFromDisk(): ConfigShape {
    this.#cache = undefined;
    return this.#read();
  }

  /**
   * The file, read as a state file before conf ever reads it (a transaction reads it first): a
   * regular file of at most 16 MiB. A link is followed (a config kept with dotfiles), but a
   * FIFO, a device or a folder at the path or behind the link is refused in one line
   * (StateFileError, exit 2), never read: a FIFO would block, /dev/zero would never end.
   */
  #read(): ConfigShape {
    if (this.#cache) return this.#cache;
    const text = readStateFile(this.path, { what: 'the config file', maxBytes: STATE_FILE_LIMITS.config, followLinks: true });
    if (text === undefined) return (this.#cache = { profiles: {} });
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

  /**
   * The cross-process lock, waiting up to about a minute while another process holds it (a
   * refresh holds it for one token request). Only a held lock is waited on: proper-lockfile
   * would retry any error, and a read-only or full folder would hang for that minute.
   */
  async #lock(): Promise<() => Promise<void>> {
    const { default: lockfile } = await import('proper-lockfile');
    for (let attempt = 0; ; attempt++) {
      try {
        return await lockfile.lock(this.path, { realpath: false, stale: STALE_LOCK_MS, retries: 0 });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ELOCKED' || attempt >= LOCK_ATTEMPTS) throw error;
        const delay = Math.min(200, 10 * 1.3 ** attempt) * (1 + Math.random());
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  }

  /** The folder, private; chmod only when it is not (a read-only mount of a 0700 folder passes). */
  #makeDir(): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    if ((fs.statSync(this.dir).mode & 0o777) !== 0o700) fs.chmodSync(this.dir, 0o700);
  }

  /**
   * A file beside the config holding as many bytes as the write will need, so that a disk
   * that fills up meanwhile (or is full already) fails here, before the change runs.
   * Filled with spaces, not a hole: a sparse file would hold no blocks.
   */
  #reserve(): string {
    let size = RESERVE_EXTRA_BYTES;
    try {
      size += fs.statSync(this.path).size;
    } catch {
      // No file yet.
    }
    const file = `${this.path}.tmp-reserve-${randomBytes(6).toString('hex')}`;
    const fd = fs.openSync(file, 'wx', 0o600);
    try {
      const chunk = Buffer.alloc(Math.min(size, 64 << 10), 0x20);
      // No fsync: the space is counted when written (delayed allocation reserves it too).
      for (let at = 0; at < size; at += chunk.length) fs.writeSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
    } catch (error) {
      fs.closeSync(fd);
      this.#unreserve(file);
      throw error;
    }
    fs.closeSync(fd);
    return file;
  }

  #unreserve(file: string): void {
    try {
      fs.rmSync(file, { force: true });
    } catch {
      // A folder turned read-only: the next transaction removes it with the other temp files.
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
