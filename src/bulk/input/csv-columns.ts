// The CSV columns `--from-csv` reads, per resource: the field tables' columns
// (src/schemas/ads-fields.ts). The same names are what `list -o csv` writes, so
// `list | awk | patch --from-csv -` round-trips.
import { DELIMITERS, delimiterFlagValue, delimiterWord } from '../../base/csv-dialect.js';
import { ADS_FIELDS, CLEAR_CELL, clearableFields, fieldsInHelpOrder, type AdsField, type AdsFieldResource, type FieldMode } from '../../schemas/ads-fields.js';

export type BulkResource = AdsFieldResource;
export type BulkMode = FieldMode;

export interface ColumnDoc {
  name: string;
  help: string;
}

/** The documented columns (the dotted API paths are accepted too). */
export function columnsFor(resource: BulkResource): ColumnDoc[] {
  return fieldsInHelpOrder(resource).flatMap((f) => (f.help === undefined ? [] : [{ name: f.column, help: f.help }]));
}

/** Dotted API paths accepted as columns, in the order the help lists them. */
export function dottedColumns(resource: BulkResource): string[] {
  return fieldsInHelpOrder(resource).flatMap((f) => (f.help === undefined ? [f.column] : []));
}

/** The header check: every column must be known (never silently dropped). */
export function unknownColumns(resource: BulkResource, header: string[]): string[] {
  const known = new Set<string>(ADS_FIELDS[resource].map((f) => f.column));
  return header.filter((name) => !known.has(name));
}

/**
 * Why a header of one column is not known, when it holds another separator: a spreadsheet
 * saved as CSV in a locale whose decimal mark is the comma separates with semicolons (and
 * writes 1.234,56), so both flags are named. `delimiter` is the one the file was read with.
 */
export function otherSeparator(header: readonly string[], delimiter = ','): string | undefined {
  if (header.length !== 1) return undefined;
  const found = DELIMITERS.find(({ char }) => char !== delimiter && header[0]!.includes(char));
  if (!found) return undefined;
  const flag = `--delimiter ${delimiterFlagValue(found.char)}`;
  return (
    `the header is separated by ${found.word}, not ${delimiterWord(delimiter)}: add ${flag}` +
    (found.char === ';' ? ' (and --decimal-comma if its decimals are written 1.234,56)' : '')
  );
}

/** The "CSV columns" section of --help. */
export function columnsHelp(resource: BulkResource): string {
  const docs = columnsFor(resource);
  const width = Math.max(...docs.map((d) => d.name.length));
  return [
    'CSV columns (--from-csv; header row required; an empty cell leaves the field unchanged):',
    ...docs.map((d) => `  ${d.name.padEnd(width)}  ${d.help}`),
    ...clearingHelp(resource),
    `  Dotted API paths are accepted too: ${dottedColumns(resource).join(', ')}.`,
  ].join('\n');
}

/** How a patch row clears a field (`[]`), and where what no column covers goes: the lines of the help. */
function clearingHelp(resource: BulkResource): string[] {
  const table = ADS_FIELDS[resource] as readonly AdsField[];
  const clearable = clearableFields(table);
  if (!clearable.length) return [];
  const columns = (field: string) => table.filter((f) => f.clears === field && f.help !== undefined).map((f) => f.column);
  const lines = [
    `  A patch clears a field with ${CLEAR_CELL} (as Google Ads Editor writes it), in any of its columns (the API removes it whole): ` +
      clearable.map((field) => `${field} (${columns(field).join(', ')})`).join(', ') +
      '; --clear FIELD does the same from flags.',
  ];
  if (clearable.includes('targeting'))
    lines.push(
      '  Targeting criteria no column covers (order_frequency, new_to_brand, nested groups, ...) go through --from-json: {} clears a field there, null leaves it unchanged.',
    );
  else lines.push('  With --from-json, {} clears a field and null leaves it unchanged.');
  return lines;
}
