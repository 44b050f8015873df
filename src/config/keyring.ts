// The OS keyring (Secret Service on Linux, Keychain on macOS, Credential Manager on Windows)
// through @napi-rs/keyring, in a child process.
//
// Why a child: the binding talks to D-Bus synchronously in the calling thread, even through
// its AsyncEntry (its constructor connects). A bus that accepts and never answers, or a
// locked collection waiting on a prompt nobody sees, blocked a test process for the whole
// minute it was given; in a worker thread it blocked process.exit too (Node joins its
// workers). A child is killed after KEYRING_TIMEOUT_MS and the keyring counts as absent.
// The cost is one `node` start (~60-70 ms here) per command that reads or writes a
// keyring secret, none for the others: nothing loads the binding in this process.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Env } from '../base/io.js';
import { KeyringUnavailableError, type SecretKind, type SecretStore, type SecretValues } from './secret-store.js';

/** A keyring call that takes longer is treated as no keyring (the issue: at most 3 s). */
export const KEYRING_TIMEOUT_MS = 3000;
/** How long the helper process may take to start and load the binding, before its keyring call is timed. */
const HELPER_START_MS = 20_000;

type Op = { op: 'get'; account: string } | { op: 'set'; account: string; value: string } | { op: 'delete'; account: string };

// Runs in the child (CommonJS, `node -e`): the request comes on stdin, so no secret is
// ever in an argument list; the answer is one JSON object on stdout.
const CHILD_SOURCE = `
let input = '';
process.stdin.setEncoding('utf8');
process.stdin.on('data', (c) => (input += c));
process.stdin.on('end', () => {
  const { module, service, ops } = JSON.parse(input);
  let out;
  try {
    const { Entry } = require(module);
    // Loaded: the keyring call starts now, and only it is timed (see runChild).
    process.stderr.write('ready\\n');
    // Linux: the Secret Service only, never the kernel keyring (gone at logout, not a store).
    const options = { linux: { store: 'secret-service' } };
    out = {
      results: ops.map((o) => {
        const entry = new Entry(service, o.account, options);
        if (o.op === 'get') return entry.getPassword();
        if (o.op === 'set') { entry.setPassword(o.value); return entry.getPassword() === o.value; }
        entry.deleteCredential();
        return entry.getPassword() === null;
      }),
    };
  } catch (error) {
    out = { error: String((error && error.message) || error) };
  }
  process.stdout.write(JSON.stringify(out));
});
`;

export interface KeyringOptions {
  /** The environment the keyring is reached through (DBUS_SESSION_BUS_ADDRESS, HOME). */
  env: Env;
  /** Names this config's entries apart from another config's (the config file's path). */
  service: string;
  platform: NodeJS.Platform;
}

export class KeyringSecrets implements SecretStore {
  readonly place = 'keyring' as const;
  readonly #o: KeyringOptions;

  constructor(options: KeyringOptions) {
    this.#o = options;
  }

  async get(profile: string, kinds: readonly SecretKind[]): Promise<SecretValues> {
    if (!kinds.length) return {};
    const results = await this.#run(kinds.map((kind) => ({ op: 'get', account: account(profile, kind) })));
    const values: SecretValues = {};
    kinds.forEach((kind, i) => {
      const value = results[i];
      if (typeof value === 'string') values[kind] = value;
    });
    return values;
  }

  async set(profile: string, values: Partial<Record<SecretKind, string | undefined>>): Promise<void> {
    const kinds = Object.keys(values) as SecretKind[];
    if (!kinds.length) return;
    const results = await this.#run(
      kinds.map((kind): Op => {
        const value = values[kind];
        return value === undefined ? { op: 'delete', account: account(profile, kind) } : { op: 'set', account: account(profile, kind), value };
      }),
    );
    // Each write was read back in the child: a keyring that says yes and keeps nothing is no keyring.
    const failed = kinds.filter((_, i) => results[i] !== true);
    if (failed.length) throw new KeyringUnavailableError(`it did not keep the ${failed.join(', ')} of profile ${profile} (read back after writing)`);
  }

  async check(): Promise<{ ok: true } | { ok: false; reason: string }> {
    try {
      await this.#run([{ op: 'get', account: 'check' }]);
      return { ok: true };
    } catch (error) {
      if (error instanceof KeyringUnavailableError) return { ok: false, reason: error.reason };
      throw error;
    }
  }

  async #run(ops: Op[]): Promise<unknown[]> {
    const absent = this.#noBus();
    if (absent) throw new KeyringUnavailableError(absent);
    let module: string;
    try {
      module = createRequire(import.meta.url).resolve('@napi-rs/keyring');
    } catch {
      throw new KeyringUnavailableError('the keyring library @napi-rs/keyring is not installed beside platform');
    }
    const answer = await runChild(JSON.stringify({ module, service: this.#o.service, ops }), this.#o.env);
    let parsed: { results?: unknown[]; error?: string };
    try {
      parsed = JSON.parse(answer) as typeof parsed;
    } catch {
      throw new KeyringUnavailableError('the keyring helper gave no answer');
    }
    if (parsed.error !== undefined || !parsed.results) throw new KeyringUnavailableError(plainReason(parsed.error ?? 'no answer'));
    return parsed.results;
  }

  /** On Linux, a missing session bus is known without starting anything. */
  #noBus(): string | undefined {
    if (this.#o.platform !== 'linux' && this.#o.platform !== 'freebsd') return undefined;
    const address = this.#o.env.DBUS_SESSION_BUS_ADDRESS;
    if (!address) return 'no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)';
    const socket = /^unix:path=([^,;]+)/.exec(address)?.[1];
    if (socket && !fs.existsSync(socket)) return `no D-Bus session bus at ${socket}`;
    return undefined;
  }
}

function account(profile: string, kind: SecretKind): string {
  return `${profile}:${kind}`;
}

/** The library's words without its layers of prefixes ("Platform failure: DBus error: ..."). */
function plainReason(message: string): string {
  return message.replace(/^(Platform failure|DBus error|Error): */gi, '').replace(/^(Platform failure|DBus error): */gi, '');
}

/** Runs the child with `input` on stdin; its stdout, or a KeyringUnavailableError after the timeout. */
function runChild(input: string, env: Env): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', CHILD_SOURCE], { env: { ...env, NODE_OPTIONS: '' }, stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    const giveUp = (why: string) => {
      child.kill('SIGKILL');
      reject(new KeyringUnavailableError(why));
    };
    // The KEYRING_TIMEOUT_MS limit is for the keyring call (a locked collection, a D-Bus that
    // never answers), timed from when the helper has loaded: on a busy machine starting a
    // node process alone can take seconds, which says nothing about the keyring.
    let timer = setTimeout(() => giveUp(`its helper process did not start within ${HELPER_START_MS / 1000} s`), HELPER_START_MS);
    child.stderr.setEncoding('utf8');
    child.stderr.once('data', () => {
      clearTimeout(timer);
      timer = setTimeout(
        () =>
          giveUp(`it did not answer within ${KEYRING_TIMEOUT_MS / 1000} s (a locked keyring waiting for a password prompt, or a D-Bus that does not answer)`),
        KEYRING_TIMEOUT_MS,
      );
    });
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => (out += chunk));
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new KeyringUnavailableError(`its helper process could not start: ${error.message}`));
    });
    child.once('close', () => {
      clearTimeout(timer);
      resolve(out);
    });
    child.stdin.on('error', () => {}); // a child that died early: its close says so
    child.stdin.end(input);
  });
}
