// The rows a report command prints, arranged on this side: a summary summed from daily rows
// (sync has no SUMMARY unit), --sort [-]COLUMN and --limit N. Rows stay the API's strings
// (`12.30` stays `12.30`); sums of money are exact (decimal strings, never floats).
import { CommandError, UsageError } from '../../../base/errors.js';
import { columnDef, TIME_COLUMNS } from '../../../schemas/reports.js';
import { lineEnd, recordCells, splitRecords } from './csv-records.js';

export interface ReportTable {
  columns: ReadonlyArray<{ name: string; type: string }>;
  rows: string[][];
}

export interface SortKey {
  index: number;
  descending: boolean;
  numeric: boolean;
}

const isNumeric = (type: string) => type === 'COLUMN_TYPE_INT64' || type === 'COLUMN_TYPE_DOUBLE';

/** --sort values against the report's columns: `-ad_spend` is ad_spend, largest first. */
export function sortKeys(sort: readonly string[] | undefined, columns: ReportTable['columns']): SortKey[] {
  return (sort ?? []).map((text) => {
    const descending = text.startsWith('-');
    const name = text.replace(/^[-+]/, '').trim();
    const index = columns.findIndex((c) => c.name === name);
    if (index < 0) {
      const like = columns.find((c) => name !== '' && c.name.includes(name));
      const hint = like ? `did you mean ${text.startsWith('-') ? '-' : ''}${like.name}? ` : '';
      throw new UsageError(`--sort ${text}: ${JSON.stringify(name)} is not a column of this report; ${hint}one of ${columns.map((c) => c.name).join(', ')}`);
    }
    return { index, descending, numeric: isNumeric(columns[index]!.type) };
  });
}

/** Checks --sort names among the columns the report will have, before anything is sent. */
export function checkSort(sort: readonly string[] | undefined, columns: readonly string[]): void {
  sortKeys(
    sort,
    columns.map((name) => ({ name, type: columnDef(name)?.type ?? 'COLUMN_TYPE_STRING' })),
  );
}

export function checkLimit(limit: number | undefined): void {
  if (limit !== undefined && !(Number.isInteger(limit) && limit >= 1)) throw new UsageError('--limit must be a whole number of at least 1');
}

/** The rows sorted by the keys in turn (stable: ties keep the API's order), then the first `limit`. */
export function arrangeRows(table: ReportTable, keys: readonly SortKey[], limit: number | undefined): ReportTable {
  let rows = table.rows;
  if (keys.length > 0) {
    // Each row's sort values are worked out once, not at each of the n log n comparisons.
    const values = rows.map((row) => keys.map((key) => sortValue(row[key.index] ?? '', key.numeric)));
    const order = rows.map((_, i) => i).sort((a, b) => compareValues(values[a]!, values[b]!, keys) || a - b);
    rows = order.map((i) => table.rows[i]!);
  }
  return { columns: table.columns, rows: limit === undefined ? rows : rows.slice(0, limit) };
}

/** A numeric column's cell as a number (NaN when empty or not a number), else the text. */
export function sortValue(cell: string, numeric: boolean): number | string {
  return numeric ? (cell === '' ? NaN : Number(cell)) : cell;
}

/** The order of two rows' sort values (from sortValue), key by key. */
export function compareValues(a: ReadonlyArray<number | string>, b: ReadonlyArray<number | string>, keys: readonly SortKey[]): number {
  for (let k = 0; k < keys.length; k++) {
    const x = a[k]!;
    const y = b[k]!;
    let order: number;
    if (typeof x === 'number' && typeof y === 'number') {
      // An empty or non-numeric cell sorts after every number, whichever the direction.
      if (Number.isNaN(x) || Number.isNaN(y)) {
        if (Number.isNaN(x) && Number.isNaN(y)) continue;
        return Number.isNaN(x) ? 1 : -1;
      }
      order = x - y;
    } else order = x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return keys[k]!.descending ? -order : order;
  }
  return 0;
}

/** A report's columns typed by their names (a column this CLI does not know sorts as text). */
export function typedColumns(header: readonly string[]): ReportTable['columns'] {
  return header.map((name) => ({ name, type: columnDef(name)?.type ?? 'COLUMN_TYPE_STRING' }));
}

/**
 * The API's CSV with its rows sorted and cut as arrangeRows does, as the pieces of the file to
 * write: the header and each record are the API's own bytes (a last record without a line
 * end gets the header's, as it may no longer be last).
 */
export function arrangeCsv(bytes: Buffer, sort: readonly string[] | undefined, limit: number | undefined, reportId: string): Buffer[] {
  const [header, ...records] = splitRecords(bytes);
  if (header === undefined) throw new CommandError(`report ${reportId}: the file is empty (no header)`);
  const columns = headerColumns(header);
  const keys = sortKeys(sort, columns);
  // Only the sort columns' cells are kept, each row pointing back at its record.
  const recordOf = new Map<string[], Buffer>();
  const rows = records.map((record) => {
    const cells = recordCells(record);
    const kept = keys.map((key) => cells[key.index] ?? '');
    recordOf.set(kept, record);
    return kept;
  });
  const narrow = keys.map((key, k) => ({ ...key, index: k }));
  const arranged = arrangeRows({ columns, rows }, narrow, limit).rows.map((row) => recordOf.get(row)!);
  return withLineEnds(header, arranged);
}

/** The columns a CSV header record names (a byte-order mark before the first is not its name). */
export function headerColumns(header: Buffer): ReportTable['columns'] {
  return typedColumns(recordCells(header).map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, '') : name)));
}

/** The pieces of a file of `header` and `records`: a record without a line end (the file's last) gets the header's, as it may no longer be last. */
export function withLineEnds(header: Buffer, records: readonly Buffer[]): Buffer[] {
  const end = Buffer.from(lineEnd(header) || '\n');
  return [header, ...records.flatMap((record) => (lineEnd(record) ? [record] : [record, end]))];
}

/** The first ratio among `columns`: a summary summed from daily rows cannot give it. */
export function firstRatio(columns: readonly string[]): string | undefined {
  return columns.find((name) => columnDef(name)?.measure === 'ratio');
}

/**
 * One row per entity over the whole range from rows of one day each: the day column goes,
 * counts and money are summed, the other columns (the entity's dimensions) group the rows,
 * in the order each entity first appears.
 */
export function summarize(table: ReportTable): ReportTable {
  const times = new Set(Object.values(TIME_COLUMNS));
  const kept = table.columns.map((c, i) => ({ ...c, i })).filter((c) => !times.has(c.name));
  const summed = kept.map((c) => columnDef(c.name)?.measure === 'count' || columnDef(c.name)?.measure === 'money');
  const groups = new Map<string, string[][]>();
  for (const row of table.rows) {
    const key = JSON.stringify(kept.map((c, k) => (summed[k] ? '' : (row[c.i] ?? ''))));
    let group = groups.get(key);
    if (!group) groups.set(key, (group = []));
    group.push(row);
  }
  const rows = [...groups.values()].map((group) => kept.map((c, k) => (summed[k] ? sumDecimals(group.map((row) => row[c.i] ?? '')) : (group[0]![c.i] ?? ''))));
  return { columns: kept.map(({ name, type }) => ({ name, type })), rows };
}

/** The exact sum of decimal strings (`12.30` + `0.7` = `13.00`), with as many decimals as the most precise term. */
export function sumDecimals(values: readonly string[]): string {
  const terms = values.filter((v) => v !== '');
  if (terms.some((v) => !/^-?\d+(\.\d+)?$/.test(v))) return String(terms.reduce((sum, v) => sum + Number(v), 0));
  const decimals = Math.max(0, ...terms.map((v) => v.split('.')[1]?.length ?? 0));
  const scaled = terms.reduce((sum, v) => {
    const [whole, fraction = ''] = v.replace(/^-/, '').split('.');
    const n = BigInt(whole! + fraction.padEnd(decimals, '0'));
    return sum + (v.startsWith('-') ? -n : n);
  }, 0n);
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(decimals + 1, '0');
  const text = decimals === 0 ? digits : `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}`;
  return negative ? `-${text}` : text;
}
