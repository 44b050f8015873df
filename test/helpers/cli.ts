// Drives the CLI in-process with fake streams, as a user would from a shell, against a
// real sandbox over HTTP. No module is mocked.
import fs from 'node:fs';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { runCli } from '../../src/cli.js';
import type { Clock } from '../../src/base/io.js';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../src/sandbox/index.js';
import { startRecordingProxy } from './contract/recorder.js';
import { tempDir } from './temp.js';

export { tempDir };

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  env?: Record<string, string | undefined>;
  /** Text, or a stream (an input too large to hold, generated as it is read). */
  stdin?: string | Readable;
  /** Pretend stdout (and stderr) is a terminal. */
  tty?: boolean;
  /** The terminal's width (default 200). */
  columns?: number;
  clock?: Clock;
  signal?: AbortSignal;
}

/**
 * A clock whose sleeps are `speed` (100) times shorter, and which remembers what was asked for. Its now()
 * keeps up with its sleeps: a sleep of `ms` ends with now() at least `ms` after it began,
 * as on a real clock, so code that sleeps and then reads the time sees the wait it asked for.
 */
export function fastClock(speed = 100): Clock & { slept: number[] } {
  const slept: number[] = [];
  let ahead = 0;
  const now = () => Date.now() + ahead;
  return {
    slept,
    now,
    sleep: (ms, signal) =>
      new Promise((resolve, reject) => {
        slept.push(ms);
        if (signal?.aborted) return reject(signal.reason);
        const wakeAt = now() + ms;
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal!.reason);
        };
        // Like the system clock, the listener goes when the sleep ends (a run sleeps many times on one signal).
        const timer = setTimeout(
          () => {
            signal?.removeEventListener('abort', onAbort);
            ahead += Math.max(0, wakeAt - now());
            resolve();
          },
          Math.ceil(ms / speed),
        );
        signal?.addEventListener('abort', onAbort, { once: true });
      }),
  };
}

/** One isolated user: their own config dir, pointed at one sandbox. */
export class TestUser {
  readonly configDir = tempDir();
  readonly clock = fastClock();

  constructor(
    readonly sandbox: Sandbox,
    readonly env: Record<string, string | undefined> = {},
  ) {}

  get configPath(): string {
    return path.join(this.configDir, 'config.json');
  }

  readConfig(): { default_profile?: string; profiles: Record<string, { token?: { access_token: string; expires_at: number } }> } {
    return JSON.parse(fs.readFileSync(this.configPath, 'utf8'));
  }

  writeConfig(config: unknown): void {
    fs.writeFileSync(this.configPath, JSON.stringify(config));
  }

  async run(args: string[], options: RunOptions = {}): Promise<CliResult> {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    stdout.on('data', (chunk: Buffer) => out.push(chunk));
    stderr.on('data', (chunk: Buffer) => err.push(chunk));
    const code = await runCli(args, {
      io: {
        stdout,
        stderr,
        stdin: options.stdin instanceof Readable ? options.stdin : Readable.from(options.stdin !== undefined ? [options.stdin] : []),
        stdoutIsTTY: Boolean(options.tty),
        stderrIsTTY: Boolean(options.tty),
        stdinIsTTY: false,
        columns: options.columns ?? 200,
      },
      env: {
        PLATFORM_CONFIG_DIR: this.configDir,
        PLATFORM_BASE_URL: this.sandbox.url,
        HOME: this.configDir,
        ...this.env,
        ...options.env,
      },
      signal: options.signal ?? new AbortController().signal,
      clock: options.clock ?? this.clock,
      homedir: this.configDir,
      version: '0.0.0-test',
    });
    return { code, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') };
  }

  /** Runs and parses stdout as JSON, failing loudly when the command failed. */
  async json<T = unknown>(args: string[], options: RunOptions = {}): Promise<T> {
    const result = await this.run([...args, '--json'], options);
    if (result.code !== 0) throw new Error(`platform ${args.join(' ')} exited ${result.code}: ${result.stderr}`);
    return JSON.parse(result.stdout) as T;
  }
}

/**
 * A sandbox on a free port, seen through a recording proxy (the contract gate): `url` is
 * the proxy's, everything else the sandbox's own.
 */
export async function sandboxOnFreePort(options: SandboxOptions = {}): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, ...options });
  const proxy = await startRecordingProxy(sandbox.url);
  return Object.assign(Object.create(null) as Sandbox, sandbox, {
    url: proxy.url,
    close: async () => {
      await proxy.close();
      await sandbox.close();
    },
  });
}

/** What most CLI test files start from: a sandbox on a free port, a user of it, and that user's first ad account. */
export async function sandboxWithUser(options: SandboxOptions = {}): Promise<{ sandbox: Sandbox; user: TestUser; account: string }> {
  const sandbox = await sandboxOnFreePort(options);
  const user = new TestUser(sandbox);
  return { sandbox, user, account: (await firstAccount(user)).ad_account_id };
}

/** The first listed ad account of the seeded sandbox. */
export async function firstAccount(user: TestUser): Promise<{ ad_account_id: string; currency_code: string }> {
  const accounts = await user.json<Array<{ ad_account_id: string; currency_code: string }>>(['ads', 'accounts', 'list']);
  return accounts[0]!;
}
