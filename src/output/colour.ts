// Whether output is coloured: --no-color, then NO_COLOR (no-color.org: set and not empty),
// then FORCE_COLOR / CLICOLOR_FORCE (colours even into a pipe; 0 or false turns them off),
// then a terminal that can show them (TERM=dumb cannot). The user's "no" wins over a "force".
import type { Env } from '../base/io.js';

export function colourWanted(flag: boolean, env: Env, stdoutIsTTY: boolean): boolean {
  if (!flag || env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return !['0', 'false'].includes(force.trim().toLowerCase());
  if (env.CLICOLOR_FORCE !== undefined && env.CLICOLOR_FORCE !== '0') return true;
  return stdoutIsTTY && env.TERM !== 'dumb';
}
