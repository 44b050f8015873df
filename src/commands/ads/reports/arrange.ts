// The rows a report command prints, arranged on this side: a summary summed from daily rows
// (sync has no SUMMARY unit), --sort [-]COLUMN and --limit N. Rows stay the API's strings
// (`12.30` stays `12.30`); sums of money are exact (decimal strings, never floats).
import { UsageError } from '../../../base/errors.js';
import { columnDef, TIME_COLUMNS } from '../../../schemas/reports.js';

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
  const rows = keys.length === 0 ? table.rows : [...table.rows].sort((a, b) => compareRows(a, b, keys));
  return { columns: table.columns, rows: limit === undefined ? rows : rows.slice(0, limit) };
}

function compareRows(a: readonly string[], b: readonly string[], keys: readonly SortKey[]): number {
  for (const key of keys) {
    const x = a[key.index] ?? '';
    const y = b[key.index] ?? '';
    let order: number;
    if (key.numeric) {
      // An empty or non-numeric cell sorts after every number, whichever the direction.
      const [nx, ny] = [x === '' ? NaN : Number(x), y === '' ? NaN : Number(y)];
      if (Number.isNaN(nx) || Number.isNaN(ny)) {
        if (Number.isNaN(nx) && Number.isNaN(ny)) continue;
        return Number.isNaN(nx) ? 1 : -1;
      }
      order = nx - ny;
    } else order = x < y ? -1 : x > y ? 1 : 0;
    if (order !== 0) return key.descending ? -order : order;
  }
  return 0;
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
