// `platform config set KEY VALUE`: stored in the profile through the config store (its lock, 0600).
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { existingProfile } from './profile.js';
import { SETTINGS } from './settings.js';
import type { SettingKey } from './settings-spec.js';
import { storeSetting } from './store-setting.js';

export async function run(ctx: Context, _flags: unknown, args: string[]): Promise<void> {
  const key = args[0] as SettingKey;
  const value = args[1]!;
  const setting = SETTINGS[key];
  const problem = setting.problem(value);
  if (problem) throw new UsageError(`${key}: ${problem}`);
  const { store, name } = await existingProfile(ctx);
  const dropped = await storeSetting(store, name, key, value);
  ctx.info(`Set ${key} to ${value} for profile ${name}.`);
  if (dropped) ctx.info(dropped);
  if (ctx.env[setting.env] && ctx.env[setting.env] !== value) ctx.info(`${setting.env}=${ctx.env[setting.env]} is set in this shell and still wins over it.`);
}
