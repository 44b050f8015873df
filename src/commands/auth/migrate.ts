// `platform auth migrate`: moves stored secrets into the OS keyring (or, with
// --secure-storage file, back into the config file). The store writes the keyring and reads
// it back before it removes a secret from the file, so none is ever lost on the way.
import type { Context } from '../../context.js';
import { secretsPlaceOf } from '../../config/secret-store.js';
import type { AuthMigrateFlags } from './spec.js';
import { chooseSecretsPlace, secureStorageMode } from './storage-choice.js';

export async function run(ctx: Context, flags: AuthMigrateFlags): Promise<void> {
  const store = await ctx.config();
  const choice = await ctx.profile();
  // --profile or PLATFORM_PROFILE names one profile; else every stored one moves.
  const names = choice.source.kind === 'default' ? store.storedProfileNames() : [choice.name];
  const mode = secureStorageMode(ctx, undefined, flags.secureStorage);
  const { place: target, warning } = await chooseSecretsPlace(store, names.join(', ') || 'none', mode);
  if (warning) {
    ctx.info(`${warning.replace(/, so the secrets .*$/, '')}: nothing was moved, the secrets stay where they are.`);
    return;
  }
  let moved = 0;
  for (const name of names) {
    const place = secretsPlaceOf(store.getProfile(name));
    if (place === target || place === 'none') {
      ctx.info(`Profile ${name}: ${place === 'none' ? 'no secrets stored' : `already in ${describe(target)}`}.`);
      continue;
    }
    await store.updateProfile(name, { secrets: target });
    moved++;
    ctx.info(`Profile ${name}: its secrets moved to ${describe(target)}${target === 'keyring' ? ' (read back, then removed from the config file)' : ''}.`);
  }
  ctx.info(moved ? `${moved} profile${moved === 1 ? '' : 's'} moved.` : 'Nothing to move.');
}

function describe(place: 'keyring' | 'file'): string {
  return place === 'keyring' ? 'the OS keyring' : 'the config file (mode 0600)';
}
