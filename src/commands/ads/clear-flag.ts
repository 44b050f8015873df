// `--clear FIELD` of a patch -> the cell that clears the field (`[]`, as a CSV row clears
// it), so that flags and CSV rows go through one mapping. Which fields can be cleared, and
// which columns belong to each, is the field table's (`clears` in src/schemas/ads-fields.ts).
import { UsageError } from '../../base/errors.js';
import { ADS_FIELDS, CLEAR_CELL, clearableFields, type AdsField, type AdsFieldResource } from '../../schemas/ads-fields.js';
import { shownName } from '../../schemas/input-limits.js';

/**
 * The row's cells with each field named by `--clear` set to `[]` in its first column. A name
 * that is not a clearable field of the resource, or a field also set by another flag (whose
 * cell is already in `row`), is a UsageError naming the flags.
 */
export function withClearedCells(
  resource: AdsFieldResource,
  names: readonly string[],
  row: Record<string, string>,
  flagOfColumn: (column: string) => string,
): Record<string, string> {
  const table = ADS_FIELDS[resource] as readonly AdsField[];
  const clearable = clearableFields(table);
  const out = { ...row };
  for (const name of names) {
    const field = clearable.find((f) => f === name);
    if (!field) throw new UsageError(`--clear ${shownName(name)}: not a field that can be cleared; give ${clearable.join(', ')}`);
    const columns = table.filter((f) => f.clears === field).map((f) => f.column);
    const setToo = columns.find((column) => row[column] !== undefined);
    if (setToo !== undefined) throw new UsageError(`--clear ${field} cannot be used with ${flagOfColumn(setToo)}: one removes what the other sets`);
    out[columns[0]!] = CLEAR_CELL;
  }
  return out;
}
