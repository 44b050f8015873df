import path from 'node:path';
import type { Env } from '../base/io.js';
import { stateDirectory } from '../base/state-dir.js';

/** Where profiles live: $PLATFORM_CONFIG_DIR, else $XDG_CONFIG_HOME/platform, else ~/.config/platform. */
export function configDir(env: Env, homedir: string): string {
  if (env.PLATFORM_CONFIG_DIR) return path.resolve(env.PLATFORM_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir, '.config');
  return path.join(base, 'platform');
}

/**
 * The folders the CLI keeps things in, worked out once from the environment and the home
 * folder (the factory puts them on the Context as `ctx.paths`).
 */
export interface Paths {
  /** Profiles and cached tokens (configDir). */
  readonly config: string;
  /** The state folder: $XDG_STATE_HOME/platform, else ~/.local/state/platform (base/state-dir.ts). */
  readonly state: string;
  /** Journals of bulk runs, unless --journal names one: <state>/runs. */
  readonly runs: string;
  /** The request budgets processes share per profile and host: <state>/budgets. */
  readonly budgets: string;
  /** The ledger of applied plans: <state>/plans. */
  readonly plans: string;
  /** The deliveries of `webhooks listen --inspect`, one file per profile: <config>/webhooks. */
  readonly inbox: string;
}

/** Every folder of `Paths`, from the environment and the home folder ($HOME wins over `homedir`). */
export function platformPaths(env: Env, homedir: string): Paths {
  const config = configDir(env, homedir);
  const state = stateDirectory(env, homedir);
  return Object.freeze({
    config,
    state,
    runs: path.join(state, 'runs'),
    budgets: path.join(state, 'budgets'),
    plans: path.join(state, 'plans'),
    inbox: path.join(config, 'webhooks'),
  });
}
