// What every command receives: its IO, environment, clock and lazily created services.
// Commands never touch `process`, `conf` or `undici` themselves (CONTRIBUTING.md, Layers).
import type { ConfigStore } from './config/store.js';
import type { ProfileChoice } from './config/resolve.js';
import type { Paths } from './config/paths.js';
import type { ApiClient } from './api/client.js';
import type { HttpTransport } from './http/transport.js';
import type { Clock, Env, GlobalOptions, IO, OutputTarget, ProgressDisplay, StatusLine, TransferDisplay } from './base/io.js';

// Its own layer, just under the commands (CONTRIBUTING.md, Layers): it names the api and config
// services, so layers below take the narrower views they need (OutputTarget, BrowserLoginContext).
export interface Context extends OutputTarget {
  io: IO;
  env: Env;
  clock: Clock;
  /** Aborts on Ctrl-C (SIGINT). */
  signal: AbortSignal;
  /** The global flags as parsed; frozen before the command runs. */
  readonly globals: Readonly<GlobalOptions>;
  /** The folders of config, state, runs, budgets, plans and the webhook inbox (from the environment and the home folder). */
  readonly paths: Paths;
  /** The profile store, opened on first use. */
  config(): Promise<ConfigStore>;
  /** The profile this command uses and why (--profile, PLATFORM_PROFILE or the default). */
  profile(): Promise<ProfileChoice>;
  /** The API client of the active profile, created on first use. */
  client(): Promise<ApiClient>;
  /** A new API client of any profile, with `env` as its environment (`auth status --check` asks for each profile). */
  clientOf(profile: string, env: Env): Promise<ApiClient>;
  /** The proxies and CA file in effect (the profile's ca_file too), for requests outside the API client: webhook deliveries. */
  httpTransport(): Promise<HttpTransport>;
  /** Asks for a secret without echo; fails with a UsageError when stdin is not a terminal. */
  promptSecret(message: string): Promise<string>;
  /**
   * Asks a yes/no question (@inquirer/prompts confirm) reading io.stdin and drawing on
   * io.stderr; fails with a UsageError when stdin is not a terminal. Tests answer it by
   * giving the Context a fake terminal stdin and writing the keystrokes ("y\n") to it.
   */
  confirm(message: string, defaultAnswer?: boolean): Promise<boolean>;
  /** A line of chatter on stderr (progress, hints); never data. */
  info(line: string): void;
  /**
   * A progress bar of `total` rows on stderr, sent `rowsPerRequest` to a request (for the ETA
   * under a paced budget): drawn on a terminal (whole lines in accessible mode), nothing otherwise.
   */
  progress(total: number, rowsPerRequest?: number): ProgressDisplay;
  /** A byte progress bar of a download of `totalBytes` on stderr: drawn on a terminal, nothing otherwise. */
  transfer(totalBytes: number): TransferDisplay;
  /** A status line while waiting: a spinner on a terminal, one line per change otherwise. */
  status(text: string): Promise<StatusLine>;
  /**
   * Opens a URL in the user's browser ($PLATFORM_BROWSER, $BROWSER, else the system's
   * opener). Rejects with the reason when none can be opened; may stay pending while a
   * browser command runs. Tests inject their own (a headless browser).
   */
  openUrl(url: string): Promise<void>;
}
