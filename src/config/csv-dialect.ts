// The CSV dialect a command uses (base/csv-dialect.ts): --delimiter and --decimal-comma win,
// then PLATFORM_CSV_DELIMITER and PLATFORM_CSV_DECIMAL_COMMA, then the profile's settings
// (`platform config set csv_delimiter ';'`, `csv_decimal_comma true`), for a team whose
// spreadsheets always save so.
import { delimiterOf, type CsvDialect } from '../base/csv-dialect.js';
import { switchOf } from '../base/env-switch.js';
import type { Env } from '../base/io.js';
import type { Profile } from './profile.js';
import type { Sourced } from './resolve.js';

export const DECIMAL_COMMA_VALUES = ['true', 'false'] as const;

/** The dialect in effect: each part from the first of the flags, the environment and the profile that says. */
export function csvDialectOf(flags: CsvDialect | undefined, env: Env, profile: Profile | undefined): CsvDialect {
  const delimiter = flags?.delimiter ?? delimiterOf(env.PLATFORM_CSV_DELIMITER ?? '') ?? delimiterOf(profile?.csv_delimiter ?? '');
  const decimalComma =
    flags?.decimalComma ??
    switchOf(env.PLATFORM_CSV_DECIMAL_COMMA) ??
    (profile?.csv_decimal_comma === undefined ? undefined : profile.csv_decimal_comma === 'true');
  return { ...(delimiter ? { delimiter } : {}), ...(decimalComma ? { decimalComma } : {}) };
}

/** Whether flags and environment settle the whole dialect (the profile need not be read for it). */
export function csvDialectSettled(flags: CsvDialect | undefined, env: Env): boolean {
  return (
    (flags?.delimiter ?? delimiterOf(env.PLATFORM_CSV_DELIMITER ?? '')) !== undefined &&
    (flags?.decimalComma ?? switchOf(env.PLATFORM_CSV_DECIMAL_COMMA)) !== undefined
  );
}

/** `config get csv_delimiter`: the value without a flag, and where it comes from. */
export function csvDelimiterOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  const fromEnv = env.PLATFORM_CSV_DELIMITER;
  if (fromEnv && delimiterOf(fromEnv)) return { value: fromEnv, source: { kind: 'env', name: 'PLATFORM_CSV_DELIMITER' } };
  return profile?.csv_delimiter === undefined ? undefined : { value: profile.csv_delimiter, source: { kind: 'profile', name: 'csv_delimiter' } };
}

/** `config get csv_decimal_comma`: the value without a flag, and where it comes from. */
export function csvDecimalCommaOf(env: Env, profile: Profile | undefined): Sourced | undefined {
  const fromEnv = switchOf(env.PLATFORM_CSV_DECIMAL_COMMA);
  if (fromEnv !== undefined) return { value: String(fromEnv), source: { kind: 'env', name: 'PLATFORM_CSV_DECIMAL_COMMA' } };
  return profile?.csv_decimal_comma === undefined ? undefined : { value: profile.csv_decimal_comma, source: { kind: 'profile', name: 'csv_decimal_comma' } };
}
