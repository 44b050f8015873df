// The CSV columns `--from-csv` reads, per resource: the field tables' columns
// (src/schemas/ads-fields.ts). The same names are what `list -o csv` writes, so
// `list | awk | patch --from-csv -` round-trips.
import { ADS_FIELDS, fieldsInHelpOrder, type AdsFieldResource, type FieldMode } from '../schemas/ads-fields.js';

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

/** The "CSV columns" section of --help. */
export function columnsHelp(resource: BulkResource): string {
  const docs = columnsFor(resource);
  const width = Math.max(...docs.map((d) => d.name.length));
  return [
    'CSV columns (--from-csv; header row required; an empty cell leaves the field unchanged):',
    ...docs.map((d) => `  ${d.name.padEnd(width)}  ${d.help}`),
    `  Dotted API paths are accepted too: ${dottedColumns(resource).join(', ')}.`,
  ].join('\n');
}
