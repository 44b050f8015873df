// Flags -> a one-row record with the CSV's column names, so that flags, --from-csv and
// --from-json rows go through one mapping (src/bulk/input/row-mapping.ts) to the request body:
// what a flag sets is exactly what the same CSV cell sets. Which flag fills which column is
// the field tables' (src/schemas/ads-fields.ts). Problems name the flag.
import { ADS_FIELDS, clearableFields, type AdsField, type AdsFieldResource, type FieldFlagOf, type FieldMode } from '../../schemas/ads-fields.js';
import { withClearedCells } from './clear-flag.js';
import type { FlagsOf } from '../spec.js';

/** The field flags of a resource's command of this mode, as the command's flags type has them (each optional here). */
export type FieldFlags<R extends AdsFieldResource, M extends FieldMode> = Partial<FlagsOf<readonly FieldFlagOf<(typeof ADS_FIELDS)[R][number], M>[]>>;

/** The key commander stores a flag under: `--page-limit <n>` -> pageLimit, `--no-platform-one` -> platformOne. */
export function optionKey(flags: string): string {
  const long = /--([A-Za-z0-9-]+)/.exec(flags)?.[1] ?? flags;
  return long.replace(/^no-/, '').replace(/-([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** The long flag of a flag string: `--match-type <type>` -> `--match-type`. */
const longFlag = (flags: string) => /--[A-Za-z0-9-]+/.exec(flags)?.[0] ?? flags;

/** The id flags name the item a patch changes, not a field of it. */
const ID_FLAGS: Record<string, string> = { campaign_id: '--campaign-id', ad_group_id: '--ad-group-id', ad_id: '--ad-id' };

/** The column each flag fills, and so the flag to name for a problem in that column. */
const FLAG_OF_COLUMN: Record<string, string> = {
  ...Object.fromEntries(
    Object.values(ADS_FIELDS).flatMap((table: readonly AdsField[]) => table.flatMap((f) => (f.flag ? [[f.column, longFlag(f.flag.flags)]] : []))),
  ),
  ...ID_FLAGS,
};

export function flagOfColumn(column: string): string {
  return FLAG_OF_COLUMN[column] ?? column;
}

/** A row problem in the words of flags: `--currency is required with --budget`. */
export function flagProblem(column: string, message: string): string {
  const words = message.replace(/\b[a-z_]+(?:\.[a-z_]+)?\b/g, (word) => FLAG_OF_COLUMN[word] ?? word);
  const flag = flagOfColumn(column);
  return words.startsWith(flag) ? words : `${flag}: ${words}`;
}

/** The fields whose flag a command of this mode takes. */
function flagged(resource: AdsFieldResource, mode: FieldMode): Array<AdsField & { flag: NonNullable<AdsField['flag']> }> {
  return (ADS_FIELDS[resource] as readonly AdsField[]).filter(
    (f): f is AdsField & { flag: NonNullable<AdsField['flag']> } => f.flag !== undefined && (f.modes ?? ['create', 'patch']).includes(mode),
  );
}

/**
 * The flags keys of a command's fields (they conflict with --from-csv/--from-json). A flag
 * with a default is always set, so a create cannot tell it was given: not counted there.
 */
export function fieldFlagKeys(resource: AdsFieldResource, mode: FieldMode): string[] {
  const keys = flagged(resource, mode)
    .filter((f) => mode === 'patch' || f.flag.default === undefined)
    .map((f) => optionKey(f.flag.flags));
  return mode === 'patch' && clearableFields(ADS_FIELDS[resource]).length ? [...keys, 'clear'] : keys;
}

/**
 * The record a CSV row with these cells would be; only given flags fill cells (undefined is
 * "not given": a patch leaves the field unchanged). A boolean flag writes its field's cell
 * (`--auto-bid` -> bidding=auto); the `--no-x` of a pair writes false.
 */
export function flagsRow<R extends AdsFieldResource, M extends FieldMode>(resource: R, mode: M, flags: FieldFlags<R, M>, id?: string): Record<string, string> {
  const values = flags as Record<string, unknown>;
  const row: Record<string, string> = {};
  if (id !== undefined) row[(ADS_FIELDS[resource] as readonly AdsField[]).find((f) => f.role === 'id')!.column] = id;
  for (const field of flagged(resource, mode)) {
    const value = values[optionKey(field.flag.flags)];
    if (value === undefined) continue;
    if (value === true) row[field.column] = field.cell ?? 'true';
    else if (value === false) {
      if (field.negated) row[field.column] = 'false';
    } else if (Array.isArray(value)) row[field.column] = value.join('|');
    else if (typeof value === 'string' || typeof value === 'number') row[field.column] = String(value);
  }
  // --clear FIELD (a patch): the field's `[]` cell, as a CSV row clears it.
  const clear = values.clear;
  return mode === 'patch' && Array.isArray(clear) ? withClearedCells(resource, clear as string[], row, flagOfColumn) : row;
}

/** The flags (as --kebab-case) among `keys` that were given. */
export function givenFlags(flags: object, keys: readonly string[]): string[] {
  const values = flags as Record<string, unknown>;
  // false is given too: commander sets it for --no-x (e.g. --no-platform-one).
  return keys
    .filter((key) => values[key] !== undefined)
    .map((key) => `--${values[key] === false ? 'no-' : ''}${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
}
