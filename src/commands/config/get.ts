// `platform config get KEY`: the value stored in the profile, for scripts (nothing and exit 1 when unset).
import type { Context } from '../../context.js';
import { CommandError } from '../../base/errors.js';
import { write } from '../../base/stream-write.js';
import { existingProfile } from './profile.js';
import { fieldOf } from './settings.js';
import type { SettingKey } from './settings-spec.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const key = args[0] as SettingKey;
  const { store, name } = await existingProfile(ctx);
  const value = store.getProfile(name)?.[fieldOf(key)];
  if (value === undefined) throw new CommandError(`${key} is not set for profile ${name}`);
  await write(ctx.io.stdout, `${typeof value === 'string' ? value : JSON.stringify(value)}\n`);
}
