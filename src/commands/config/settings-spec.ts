// The names of the settings `platform config` knows, each a field of the profile (./settings.ts
// says how each is checked and read). Data only: the command tree reads it for --help.
export const SETTING_KEYS = [
  'account',
  'ca_file',
  'secure_storage',
  'base_url',
  'rider_url',
  'token_url',
  'download_url',
  'accessible',
  'csv_delimiter',
  'csv_decimal_comma',
] as const;
export type SettingKey = (typeof SETTING_KEYS)[number];
