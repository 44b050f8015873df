// `platform config list`: every setting, the value in effect without flags, and where it comes from.
import type { Context } from '../../context.js';
import type { View } from '../../output/columns.js';
import { writeRows } from '../../output/rows.js';
import type { Profile } from '../../config/profile.js';
import { existingProfile } from './profile.js';
import { sourceText } from '../../config/resolve.js';
import { SETTINGS } from './settings.js';
import { SETTING_KEYS } from './settings-spec.js';

interface SettingRow {
  key: string;
  value: string | null;
  /** env NAME, config, default (built in, or base_url's for rider_url and token_url), or null when not set. */
  source: string | null;
  profile: string;
}

const view: View<SettingRow> = {
  noun: 'settings',
  columns: [
    // A key is typed back (`config set KEY`): never broken, csv_decimal_comma included.
    { header: 'KEY', name: 'key', csv: (r) => r.key, kind: 'id' },
    { header: 'VALUE', name: 'value', csv: (r) => r.value ?? '', table: (r) => r.value ?? '(not set)' },
    { header: 'SOURCE', name: 'source', csv: (r) => r.source ?? '' },
    { header: 'PROFILE', name: 'profile', csv: (r) => r.profile },
  ],
};

export async function run(ctx: Context): Promise<void> {
  const { store, name } = await existingProfile(ctx);
  const profile = store.getProfile(name);
  const stored = store.readFromDisk().profiles[name];
  const rows = SETTING_KEYS.map((key): SettingRow => {
    const effective = SETTINGS[key].effective(ctx.env, profile);
    // A value of the built-in local profile that the file does not hold (its base_url) is a default, not config.
    const builtin = effective?.source.kind === 'profile' && stored?.[effective.source.name as keyof Profile] === undefined;
    const source = effective ? (builtin ? 'default' : sourceText(effective.source, 'label')) : null;
    return { key, value: effective?.value ?? null, source, profile: name };
  });
  await writeRows(ctx, view, rows);
}
