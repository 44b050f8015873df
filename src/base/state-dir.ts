// Where the CLI keeps what outlives a run and is not configuration (XDG Base Directory's
// state folder): the journals of bulk runs, their budgets, Node's compile cache. Kept apart
// from the rest of base so that main.ts can load it before the CLI: it imports only node:path.
import path from 'node:path';
import type { Env } from './io.js';

/** $XDG_STATE_HOME/platform, else $HOME/.local/state/platform (the account's home when HOME is unset). */
export function stateDirectory(env: Env, homedir: string): string {
  const base = env.XDG_STATE_HOME || path.join(env.HOME || homedir, '.local', 'state');
  return path.join(base, 'platform');
}
