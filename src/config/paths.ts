import path from 'node:path';
import type { Env } from '../base/io.js';

/** Where profiles live: $PLATFORM_CONFIG_DIR, else $XDG_CONFIG_HOME/platform, else ~/.config/platform. */
export function configDir(env: Env, homedir: string): string {
  if (env.PLATFORM_CONFIG_DIR) return path.resolve(env.PLATFORM_CONFIG_DIR);
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir, '.config');
  return path.join(base, 'platform');
}
