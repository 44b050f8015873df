// `platform config unset KEY`: removed from the profile (nothing to do when it was not set).
import type { Context } from '../../context.js';
import { existingProfile } from './profile.js';
import type { SettingKey } from './settings-spec.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const key = args[0] as SettingKey;
  const { store, name } = await existingProfile(ctx);
  const had = store.getProfile(name)?.[key] !== undefined;
  await store.updateProfile(name, { [key]: undefined });
  ctx.info(had ? `Removed ${key} from profile ${name}.` : `${key} was not set for profile ${name}.`);
}
