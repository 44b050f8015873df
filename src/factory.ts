// Builds the Context a command runs with: real or fake IO, and lazily created services
// (the config store, the HTTP client) so a command pays only for what it uses.
import os from 'node:os';
import type { Writable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { ApiClient } from './api/client.js';
import { Redactor } from './http/redact.js';
import type { RetryPolicy } from './http/retry.js';
import type { ConfigStore } from './config/store.js';
import { platformPaths } from './config/paths.js';
import { authUrlOf, baseUrlOf, caFileOf, chooseProfile, riderUrlOf, sourceText, type Sourced } from './config/resolve.js';
import type { ProxySettings } from './http/proxy-env.js';
import type { Governor } from './http/governor.js';
import { type Context } from './context.js';
import { systemClock, type Clock, type Env, type GlobalOptions, type IO } from './base/io.js';
import { AuthError, InterruptedError, UsageError } from './base/errors.js';
import { progressDisplay, transferDisplay } from './output/progress.js';
import { forStream } from './output/terminal-text.js';
import { terminalColumns } from './output/format.js';
import { baseUrlAdvice, loginCommand } from './commands/advice.js';

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
  /** The profile whose client was built, if a command used one (error lines name it). */
  clientProfile(): string | undefined;
  /** Releases what was created (HTTP connections). */
  close(): Promise<void>;
}

/** The context of one command, from its dependencies and its parsed global flags (frozen: nothing changes them). */
export function createFactory(deps: FactoryDeps, parsedGlobals: GlobalOptions = { color: false, debug: false }): Factory {
  const clock = deps.clock ?? systemClock;
  const redactor = new Redactor();
  const globals: Readonly<GlobalOptions> = Object.freeze({ ...parsedGlobals });
  const paths = platformPaths(deps.env, deps.homedir ?? os.homedir());
  let config: ConfigStore | undefined;
  let client: Promise<ApiClient> | undefined;
  let usedProfile: string | undefined;
  // One transport per CA file (profiles may name different ones), shared by every client.
  const transports = new Map<string, Dispatcher>();
  // One request budget per profile and host, whichever client reaches it (ads and rider may share a host).
  const governors = new Map<string, Governor>();

  const ctx: Context = {
    io: { ...deps.io, columns: terminalColumns(deps.env, deps.io.columns) },
    env: deps.env,
    clock,
    signal: deps.signal,
    globals,
    paths,
    async config() {
      if (!config) {
        const { ConfigStore } = await import('./config/store.js');
        const dir = paths.config;
        config = new ConfigStore(dir, {
          // Loaded only by a command that reads or writes a keyring secret (README, Credentials).
          keyring: async () => {
            const { KeyringSecrets } = await import('./config/keyring.js');
            return new KeyringSecrets({ env: deps.env, service: `platform-cli:${dir}`, platform: os.platform() });
          },
        });
      }
      return config;
    },
    async profile() {
      return chooseProfile(globals.profile, deps.env, (await ctx.config()).defaultProfile);
    },
    client() {
      client ??= ctx.config().then((store) => {
        usedProfile = activeProfile(ctx, store);
        return buildClient(usedProfile, deps.env);
      });
      return client;
    },
    clientOf(profileName, env) {
      return buildClient(profileName, env);
    },
    async promptSecret(message) {
      if (!deps.io.stdinIsTTY) throw new UsageError(`${message} is needed, and stdin is not a terminal to ask on`);
      const [{ password }, output] = await Promise.all([import('@inquirer/prompts'), promptOutput()]);
      return interruptible(password({ message, mask: false }, { input: deps.io.stdin, output, signal: deps.signal }));
    },
    async confirm(message, defaultAnswer = false) {
      if (!deps.io.stdinIsTTY) throw new UsageError(`${message} needs an answer, and stdin is not a terminal to ask on`);
      const [{ confirm }, output] = await Promise.all([import('@inquirer/prompts'), promptOutput()]);
      return interruptible(confirm({ message, default: defaultAnswer }, { input: deps.io.stdin, output, signal: deps.signal }));
    },
    info(line) {
      deps.io.stderr.write(`${forStream(line, deps.io.stderrIsTTY)}\n`);
    },
    progress(total) {
      return progressDisplay(deps.io, total, clock, () => (usedProfile === undefined ? undefined : governorPace(usedProfile)));
    },
    transfer(totalBytes) {
      return transferDisplay(deps.io, totalBytes, clock);
    },
    async status(text) {
      const { startStatus } = await import('./output/status.js');
      return startStatus(deps.io, text);
    },
    async openUrl(url) {
      if (deps.openUrl) return deps.openUrl(url);
      const { openBrowser } = await import('./auth/browser.js');
      return openBrowser(url, { env: deps.env, platform: os.platform() });
    },
  };

  /** Inquirer ends its output stream when a prompt closes; stderr must stay open for what follows. */
  async function promptOutput(): Promise<Writable> {
    const { Writable } = await import('node:stream');
    return new Writable({ write: (chunk, encoding, done) => void deps.io.stderr.write(chunk, encoding, () => done()) });
  }

  async function buildClient(profileName: string, env: Env): Promise<ApiClient> {
    const store = await ctx.config();
    const profile = store.getProfile(profileName);
    if (!profile) {
      throw new AuthError(`no profile named ${profileName}`, { profile: profileName, grant: 'client_credentials', create: true });
    }
    const baseUrl = baseUrlOf(env, profile)?.value;
    if (!baseUrl) throw new UsageError(`profile ${profileName} has no base URL; ${baseUrlAdvice(profileName)}`);
    // Three hosts (README, Credentials): secrets go only to auth_url, bearer tokens never do.
    const authUrl = authUrlOf(env, profile)?.value ?? baseUrl;
    const riderUrl = riderUrlOf(env, profile)?.value ?? baseUrl;
    const [{ HttpCore }, { proxySettings }, { ApiClient }, { ProfileTokenSource }, { Downloader }] = await Promise.all([
      import('./http/core.js'),
      import('./http/proxy-env.js'),
      import('./api/client.js'),
      import('./auth/token-source.js'),
      import('./http/download.js'),
    ]);
    const proxy = proxySettings(deps.env);
    for (const credentials of [proxy?.http?.authorization, proxy?.https?.authorization]) redactor.add(credentials);
    const dispatcher = deps.dispatcher ?? (await transportFor(proxy, caFileOf(env, profile, globals.caFile)));
    const common = {
      baseUrl,
      proxy,
      dispatcher,
      clock,
      redactor,
      retry: deps.retry,
      random: deps.random,
      userAgent: `platform-cli/${deps.version}`,
      signal: deps.signal,
      trace: globals.debug ? (line: string) => deps.io.stderr.write(`${line}\n`) : undefined,
    };
    const tokenHttp = new HttpCore({ ...common, baseUrl: authUrl });
    const [adsGovernor, riderGovernor] = await Promise.all([governorFor(profileName, baseUrl), governorFor(profileName, riderUrl)]);
    const tokens = new ProfileTokenSource({
      profileName,
      config: store,
      env,
      clock,
      redactor,
      tokenHttp: () => tokenHttp,
      promptSecret: deps.io.stdinIsTTY ? (message) => ctx.promptSecret(message) : undefined,
      warn: (line, need) => ctx.info(need ? `${line}; after it, run \`${loginCommand(need)}\`` : line),
    });
    return new ApiClient({
      ads: new HttpCore({ ...common, tokens, governor: adsGovernor }),
      auth: tokenHttp,
      rider: new HttpCore({ ...common, baseUrl: riderUrl, tokens, governor: riderGovernor }),
      downloads: new Downloader(common),
      profile: profileName,
      tokens,
    });
  }

  /**
   * The governor of a profile's requests to one host. Processes on this machine using the same
   * profile and host share its budget through a file in the state folder (README, Bulk changes).
   */
  async function governorFor(profileName: string, url: string): Promise<Governor> {
    const origin = new URL(url).origin;
    const key = `${profileName}\n${origin}`;
    const known = governors.get(key);
    if (known) return known;
    const [{ Governor }, { FileBudget, budgetFile }] = await Promise.all([import('./http/governor.js'), import('./http/governor-file.js')]);
    // Beside the runs' journals: $XDG_STATE_HOME/platform/budgets/.
    const file = budgetFile(paths.budgets, profileName, origin);
    const governor =
      governors.get(key) ??
      new Governor({
        clock,
        store: new FileBudget(file, clock, (line) => ctx.info(line)),
        trace: globals.debug ? (line: string) => deps.io.stderr.write(`${line}\n`) : undefined,
      });
    governors.set(key, governor);
    return governor;
  }

  /** The pace of the profile's ads host, for the progress line. */
  function governorPace(profileName: string): number | undefined {
    for (const [key, governor] of governors) if (key.startsWith(`${profileName}\n`)) return governor.pace();
    return undefined;
  }

  /** The proxies of the environment and the CA file in effect, as one dispatcher (ads, rider, token, downloads). */
  async function transportFor(proxy: ProxySettings | undefined, caFile: Sourced | undefined): Promise<Dispatcher> {
    const key = caFile?.value ?? '';
    const known = transports.get(key);
    if (known) return known;
    const [{ createTransport }, { trustingCaFile }] = await Promise.all([import('./http/transport.js'), import('./http/ca-bundle.js')]);
    const secureContext = caFile ? await trustingCaFile(caFile.value, sourceText(caFile.source), deps.env) : undefined;
    // Another client may have built it meanwhile.
    const transport = transports.get(key) ?? createTransport({ proxy, secureContext });
    transports.set(key, transport);
    return transport;
  }

  return {
    ctx,
    clientProfile: () => usedProfile,
    async close() {
      await Promise.all([...transports.values()].map((transport) => transport.close()));
    },
  };
}

/** --profile, else $PLATFORM_PROFILE, else the stored default (the local sandbox when none). */
function activeProfile(ctx: Context, store: ConfigStore): string {
  return chooseProfile(ctx.globals.profile, ctx.env, store.defaultProfile).name;
}

/** Ctrl-C at a prompt (a keypress in raw mode, or the signal) is an interrupt: exit 130, not a failure. */
async function interruptible<T>(prompt: Promise<T>): Promise<T> {
  try {
    return await prompt;
  } catch (error) {
    if (error instanceof Error && (error.name === 'ExitPromptError' || error.name === 'AbortPromptError')) throw new InterruptedError();
    throw error;
  }
}
