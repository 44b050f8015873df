// Builds the Context a command runs with: real or fake IO, and lazily created services
// (the config store, the HTTP client) so a command pays only for what it uses.
import os from 'node:os';
import type { Dispatcher } from 'undici';
import type { ApiClient } from './api/client.js';
import { Redactor } from './api/redact.js';
import type { RetryPolicy } from './api/retry.js';
import type { ConfigStore } from './config/store.js';
import { configDir } from './config/paths.js';
import { systemClock, type Clock, type Context, type Env, type GlobalOptions, type IO } from './context.js';
import { AuthError, UsageError } from './errors.js';

export interface FactoryDeps {
  io: IO;
  env: Env;
  signal: AbortSignal;
  clock?: Clock;
  homedir?: string;
  version: string;
  /** Transport for the HTTP core; tests pass an undici MockAgent. Default: a keep-alive Agent. */
  dispatcher?: Dispatcher;
  retry?: RetryPolicy;
  random?: () => number;
  /** Replaces the browser opener (tests drive a headless browser or plain HTTP). */
  openUrl?: (url: string) => Promise<void>;
}

export interface Factory {
  ctx: Context;
  /** Releases what was created (HTTP connections). */
  close(): Promise<void>;
}

export function createFactory(deps: FactoryDeps): Factory {
  const clock = deps.clock ?? systemClock;
  const redactor = new Redactor();
  const globals: GlobalOptions = { color: false, debug: false };
  let config: ConfigStore | undefined;
  let client: Promise<ApiClient> | undefined;
  let dispatcher: Dispatcher | undefined = deps.dispatcher;
  const ownsDispatcher = !deps.dispatcher;

  const ctx: Context = {
    io: deps.io,
    env: deps.env,
    clock,
    signal: deps.signal,
    globals,
    async config() {
      if (!config) {
        const { ConfigStore } = await import('./config/store.js');
        config = new ConfigStore(configDir(deps.env, deps.homedir ?? os.homedir()));
      }
      return config;
    },
    client() {
      client ??= buildClient();
      return client;
    },
    async promptSecret(message) {
      if (!deps.io.stdinIsTTY) throw new UsageError(`${message} is needed, and stdin is not a terminal to ask on`);
      const [{ password }, output] = await Promise.all([import('@inquirer/prompts'), promptOutput()]);
      return password({ message, mask: false }, { input: deps.io.stdin, output, signal: deps.signal });
    },
    async confirm(message, defaultAnswer = false) {
      if (!deps.io.stdinIsTTY) throw new UsageError(`${message} needs an answer, and stdin is not a terminal to ask on`);
      const [{ confirm }, output] = await Promise.all([import('@inquirer/prompts'), promptOutput()]);
      return confirm({ message, default: defaultAnswer }, { input: deps.io.stdin, output, signal: deps.signal });
    },
    info(line) {
      deps.io.stderr.write(`${line}\n`);
    },
    async openUrl(url) {
      if (deps.openUrl) return deps.openUrl(url);
      const { openBrowser } = await import('./auth/browser.js');
      return openBrowser(url, { env: deps.env, platform: os.platform() });
    },
  };

  /** Inquirer ends its output stream when a prompt closes; stderr must stay open for what follows. */
  async function promptOutput(): Promise<import('node:stream').Writable> {
    const { Writable } = await import('node:stream');
    return new Writable({ write: (chunk, encoding, done) => void deps.io.stderr.write(chunk, encoding, () => done()) });
  }

  async function buildClient(): Promise<ApiClient> {
    const store = await ctx.config();
    const profileName = activeProfile(ctx, store);
    const profile = store.getProfile(profileName);
    if (!profile) {
      throw new AuthError(`no profile named ${profileName}. Run \`platform auth login --client-credentials --profile ${profileName}\` to create it.`);
    }
    const baseUrl = deps.env.PLATFORM_BASE_URL || profile.base_url;
    if (!baseUrl) throw new UsageError(`profile ${profileName} has no base URL; run \`platform auth login --client-credentials --profile ${profileName} --base-url URL\``);
    const [{ HttpCore, createAgent }, { ApiClient }, { ProfileTokenSource }] = await Promise.all([
      import('./api/http.js'),
      import('./api/client.js'),
      import('./auth/token-source.js'),
    ]);
    dispatcher ??= createAgent();
    const common = {
      baseUrl,
      dispatcher,
      clock,
      redactor,
      retry: deps.retry,
      random: deps.random,
      userAgent: `platform-cli/${deps.version}`,
      signal: deps.signal,
      trace: globals.debug ? (line: string) => deps.io.stderr.write(`${line}\n`) : undefined,
    };
    const tokenHttp = new HttpCore(common);
    const tokens = new ProfileTokenSource({
      profileName,
      config: store,
      env: deps.env,
      clock,
      redactor,
      tokenHttp: () => tokenHttp,
      promptSecret: deps.io.stdinIsTTY ? (message) => ctx.promptSecret(message) : undefined,
    });
    return new ApiClient(new HttpCore({ ...common, tokens }), profileName, tokens);
  }

  return {
    ctx,
    async close() {
      if (ownsDispatcher && dispatcher) await dispatcher.close();
    },
  };
}

/** --profile, else $PLATFORM_PROFILE, else the stored default (the local sandbox when none). */
export function activeProfile(ctx: Context, store: ConfigStore): string {
  return ctx.globals.profile || ctx.env.PLATFORM_PROFILE || store.defaultProfile;
}
