// `platform config unset KEY`: removed from the profile (nothing to do when it was not set).
import type { Context } from '../../context.js';
import { builtinProfiles } from '../../config/profile.js';
import { existingProfile } from './profile.js';
import { fieldOf } from './settings.js';
import type { SettingKey } from './settings-spec.js';
import { storeSetting } from './store-setting.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const key = args[0] as SettingKey;
  const { store, name } = await existingProfile(ctx);
  const field = fieldOf(key);
  const had = store.readFromDisk().profiles[name]?.[field] !== undefined;
  const dropped = await storeSetting(store, name, key, undefined);
  // The built-in local profile's own value comes back (its base_url: the sandbox).
  const builtin = builtinProfiles[name]?.[field];
  const back = typeof builtin === 'string' ? ` (back to the built-in ${builtin})` : '';
  ctx.info(had ? `Removed ${key} from profile ${name}${back}.` : `${key} was not set for profile ${name}.`);
  if (dropped) ctx.info(dropped);
}
