// `platform rider request ...`: with no action it requests a ride (request/create.ts);
// `get ID`, `cancel ID` and `current` each have their own module, loaded when used.
import type { Context } from '../../context.js';
import type { CommandModule } from '../spec.js';

const ACTIONS: Record<string, () => Promise<CommandModule>> = {
  get: () => import('./request/get.js'),
  cancel: () => import('./request/cancel.js'),
  current: () => import('./request/current.js'),
};

export async function run(ctx: Context, flags: Record<string, unknown>, args: string[]): Promise<number | void> {
  const [action, ...rest] = args;
  const load = action ? ACTIONS[action] : () => import('./request/create.js');
  return (await load!()).run(ctx, flags, rest);
}
