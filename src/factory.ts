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
import { authUrlOf, baseUrlOf, caFileOf, chooseProfile, downloadUrlOf, riderUrlOf, sourceText, type Sourced } from './config/resolve.js';
import type { ProxySettings } from './http/proxy-env.js';
import type { Governor } from './http/governor.js';
import { type Context } from './context.js';
import { systemClock, type Clock, type Env, type GlobalOptions, type IO } from './base/io.js';
import { InterruptedError, UsageError } from './base/errors.js';
import { progressDisplay, transferDisplay } from './output/progress.js';
import { paceShare } from './output/eta.js';
import { erasingLine, RedrawnLine } from './output/terminal-line.js';
import { accessibleOfProfile } from './config/accessible.js';
import { csvDialectOf, csvDialectSettled } from './config/csv-dialect.js';
import type { Profile } from './config/profile.js';
import type { SecretStore } from './config/secret-store.js';
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

/**
 * The factory of one command once its global settings are known: accessible mode, when neither
 * --accessible nor PLATFORM_ACCESSIBLE says, is the profile's setting (its store is then opened
 * here, and kept for the command).
 */
export async function startFactory(deps: FactoryDeps, parsedGlobals: GlobalOptions): Promise<Factory> {
  // The CSV dialect likewise: the profile's csv_* settings when the flags and the env leave a part open.
  if (parsedGlobals.accessible !== undefined && csvDialectSettled(parsedGlobals.csv, deps.env))
    return createFactory(deps, { ...parsedGlobals, csv: csvDialectOf(parsedGlobals.csv, deps.env, undefined) });
  const { ConfigStore } = await import('./config/store.js');
  const store = new ConfigStore(platformPaths(deps.env, deps.homedir ?? os.homedir()).config, { keyring: keyringOf(deps) });
  let profile: Profile | undefined;
  try {
    profile = store.getProfile(chooseProfile(parsedGlobals.profile, deps.env, store.defaultProfile).name);
  } catch {
    // An unreadable config is the command's to report, if it reads one.
  }
  const accessible = parsedGlobals.accessible ?? accessibleOfProfile(profile);
  return createFactory(deps, { ...parsedGlobals, accessible, csv: csvDialectOf(parsedGlobals.csv, deps.env, profile) }, store);
}

/** The context of one command, from its dependencies and its parsed global flags (frozen: nothing changes them). */
export function createFactory(deps: FactoryDeps, parsedGlobals: GlobalOptions = { color: false, debug: false }, openedConfig?: ConfigStore): Factory {
  const clock = deps.clock ?? systemClock;
  const redactor = new Redactor();
  const globals: Readonly<GlobalOptions> = Object.freeze({ ...parsedGlobals });
  const paths = platformPaths(deps.env, deps.homedir ?? os.homedir());
  let config: ConfigStore | undefined = openedConfig;
  // While a progress bar is drawn on the terminal, anything else written erases it first (terminal-line.ts).
  const line = new RedrawnLine();
  const io = deps.io.stderrIsTTY ? erasingLine(deps.io, line) : deps.io;
  let client: Promise<ApiClient> | undefined;
  let usedProfile: string | undefined;
  // One transport per CA file (profiles may name different ones), shared by every client.
  const transports = new Map<string, Dispatcher>();
  // One request budget per profile and host, whichever client reaches it (ads and rider may share a host).
  const governors = new Map<string, Governor>();

  const ctx: Context = {
    io: { ...io, columns: terminalColumns(deps.env, deps.io.columns) },
    env: deps.env,
    clock,
    signal: deps.signal,
    globals,
    paths,
    async config() {
      if (!config) {
        const { ConfigStore } = await import('./config/store.js');
        config = new ConfigStore(paths.config, { keyring: keyringOf(deps) });
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
    async httpTransport() {
      const [store, { proxySettings }] = await Promise.all([ctx.config(), import('./http/proxy-env.js')]);
      const proxy = proxySettings(deps.env);
      const profile = store.getProfile((await ctx.profile()).name);
      return { dispatcher: deps.dispatcher ?? (await transportFor(proxy, caFileOf(deps.env, profile, globals.caFile))), proxy };
    },
    async promptSecret(message) {
      if (!deps.io.stdinIsTTY) throw new UsageError(`${message} is needed, and stdin is not a terminal to ask on`);
      if (globals.accessible) {
        const { askHidden } = await import('./output/line-prompts.js');
        return askHidden(io, message, deps.signal);
      }
      const [{ password }, output] = await Promise.all([import('@inquirer/prompts'), promptOutput()]);
      return interruptible(password({ message, mask: false }, { input: deps.io.stdin, output, signal: deps.signal }));
    },
    async confirm(message, defaultAnswer = false) {
      if (!deps.io.stdinIsTTY) throw new UsageError(`${message} needs an answer, and stdin is not a terminal to ask on`);
      if (globals.accessible) {
        const { askNumbered } = await import('./output/line-prompts.js');
        const choices = [
          { label: 'Yes', value: true },
          { label: 'No', value: false },
        ];
        return askNumbered(io, message, choices, defaultAnswer ? 0 : 1, deps.signal);
      }
      const [{ confirm }, output] = await Promise.all([import('@inquirer/prompts'), promptOutput()]);
      return interruptible(confirm({ message, default: defaultAnswer }, { input: deps.io.stdin, output, signal: deps.signal }));
    },
    info(text) {
      io.stderr.write(`${forStream(text, deps.io.stderrIsTTY)}\n`);
    },
    progress(total, rowsPerRequest) {
      // Drawn on the real stderr: its own writes must not erase it.
      return progressDisplay(deps.io, total, clock, {
        pace: () => (usedProfile === undefined ? undefined : governorPace(usedProfile)),
        rowsPerRequest,
        line,
        accessible: globals.accessible,
      });
    },
    transfer(totalBytes) {
      return transferDisplay(deps.io, totalBytes, clock, { line, accessible: globals.accessible });
    },
    async status(text) {
      const { startStatus } = await import('./output/status.js');
      return startStatus(io, text, { accessible: globals.accessible, colour: globals.color });
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
    return new Writable({ write: (chunk, encoding, done) => void io.stderr.write(chunk, encoding, () => done()) });
  }

  async function buildClient(profileName: string, env: Env): Promise<ApiClient> {
    const store = await ctx.config();
    const profile = store.getProfile(profileName);
    if (!profile) {
      // Exit 2 naming the profiles there are (a typo in --profile), and the login that creates it.
      const { unknownProfile } = await import('./commands/config/profile.js');
      throw unknownProfile(store, profileName, true);
    }
    const { checkedUrl } = await import('./config/url-setting.js');
    const baseUrl = checkedUrl(baseUrlOf(env, profile));
    if (!baseUrl) throw new UsageError(`profile ${profileName} has no base URL; ${baseUrlAdvice(profileName)}`);
    // Three hosts (README, Credentials): secrets go only to auth_url, bearer tokens never do.
    const authUrl = checkedUrl(authUrlOf(env, profile)) ?? baseUrl;
    const riderUrl = checkedUrl(riderUrlOf(env, profile)) ?? baseUrl;
    const downloadUrl = checkedUrl(downloadUrlOf(env, profile));
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
      trace: globals.debug ? (line: string) => io.stderr.write(`${line}\n`) : undefined,
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
      downloads: new Downloader({ ...common, downloadUrl }),
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
        trace: globals.debug ? (line: string) => io.stderr.write(`${line}\n`) : undefined,
      });
    governors.set(key, governor);
    return governor;
  }

  /** The pace of the profile's ads host, for the progress line: this process's share of it when other processes use the same budget. */
  function governorPace(profileName: string): number | undefined {
    for (const [key, governor] of governors) if (key.startsWith(`${profileName}\n`)) return paceShare(governor);
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

/** The OS keyring of the config store: loaded only by a command that reads or writes a keyring secret (README, Credentials). */
function keyringOf(deps: FactoryDeps): () => Promise<SecretStore> {
  const dir = platformPaths(deps.env, deps.homedir ?? os.homedir()).config;
  return async () => {
    const { KeyringSecrets } = await import('./config/keyring.js');
    return new KeyringSecrets({ env: deps.env, service: `platform-cli:${dir}`, platform: os.platform() });
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
