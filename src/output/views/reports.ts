// How reports, report types and catalog products look in tables, CSV and detail views.
import { columnDef, describeRange, parseRfc3339, type ColumnDef, type ReportTypeDef } from '../../schemas/reports.js';
import type { Product, ReportStatusResponse } from '../../schemas/report-requests.js';
import type { Column, View } from '../columns.js';
import type { DetailField } from '../detail.js';
import { formatBytes } from '../progress.js';

export const productView: View<Product> = {
  noun: 'products',
  columns: [
    { header: 'GTIN', name: 'gtin', csv: (p) => p.gtin, kind: 'id' },
    { header: 'NAME', name: 'product_name', csv: (p) => p.product_name, kind: 'text' },
    { header: 'BRAND', name: 'brand_name', csv: (p) => p.brand_name, kind: 'text' },
    { header: 'OWNER', name: 'brand_owner_name', csv: (p) => p.brand_owner_name, kind: 'text', priority: 1 },
    { header: 'SIZE', name: 'size', csv: (p) => p.size },
    { header: 'IMAGE', name: 'main_image_url', csv: (p) => p.main_image_url, csvOnly: true },
  ],
};

/** `ads reports types`: one row per type (JSON carries every column too). */
export interface ReportTypeRow {
  name: string;
  description: string;
  units: string[];
  sync_units: string[];
  /** What --columns is when not given. */
  default_columns: string[];
  columns: ColumnDef[];
}

export const reportTypeView: View<ReportTypeRow> = {
  noun: 'report types',
  columns: [
    { header: 'TYPE', name: 'name', csv: (t) => t.name, kind: 'id' },
    { header: 'UNITS', name: 'units', csv: (t) => t.units.join(' '), kind: 'words', priority: 2 },
    {
      header: 'SYNC UNITS',
      name: 'sync_units',
      csv: (t) => t.sync_units.join(' '),
      table: (t) => t.sync_units.join(' ') || '-',
      kind: 'words',
      priority: 1,
    },
    {
      header: 'DIMENSIONS',
      name: 'dimensions',
      csv: (t) =>
        t.columns
          .filter((c) => c.kind === 'dimension')
          .map((c) => c.name)
          .join(' '),
      kind: 'words',
    },
    // Left out of a narrow table after the units (`reports types --type T` marks them too).
    { header: 'DEFAULT COLUMNS', name: 'default_columns', csv: (t) => t.default_columns.join(' '), kind: 'words', priority: 3 },
    { header: 'DESCRIPTION', name: 'description', csv: (t) => t.description, kind: 'words' },
  ],
};

export function reportTypeRow(type: ReportTypeDef, columns: ColumnDef[]): ReportTypeRow {
  return {
    name: type.name,
    description: type.description,
    units: [...type.asyncUnits],
    sync_units: [...type.syncUnits],
    default_columns: [...type.defaultColumns],
    columns,
  };
}

/** `ads reports types --type T`: the columns of one type, and whether each is among its defaults. */
export type ReportColumnRow = ColumnDef & { default: boolean };

export const reportColumnView: View<ReportColumnRow> = {
  noun: 'columns',
  columns: [
    { header: 'COLUMN', name: 'name', csv: (c) => c.name, kind: 'id' },
    { header: 'KIND', name: 'kind', csv: (c) => c.kind, priority: 2 },
    { header: 'TYPE', name: 'type', csv: (c) => c.type.replace(/^COLUMN_TYPE_/, ''), kind: 'id', priority: 1 },
    { header: 'DESCRIPTION', name: 'description', csv: (c) => c.description, kind: 'words' },
    { header: 'DEFAULT', name: 'default', csv: (c) => (c.default ? 'yes' : ''), priority: 3 },
  ],
};

/** `ads reports get`: the API's status object, with the id it was asked for and, when known here, what it covers. */
export type ReportRecord = {
  report_id: string;
  report_type?: string;
  time_unit?: string;
  time_range?: { start_time: string; end_time: string };
} & ReportStatusResponse;

export function reportDetail(report: ReportRecord): DetailField[] {
  const success = report.result?.success_result;
  const start = report.time_range && parseRfc3339(report.time_range.start_time);
  const end = report.time_range && parseRfc3339(report.time_range.end_time);
  return [
    ['Report', report.report_id],
    ['Type', report.report_type ?? 'not known here (created elsewhere)'],
    ['Unit', report.time_unit],
    ['Range', start !== undefined && end !== undefined ? describeRange(start, end) : undefined],
    ['Status', report.status],
    ['Started', report.result?.started_at],
    ['Finished', report.result?.finished_at],
    ['Failure', report.result?.failure_result?.failure_reason],
    ['File size', success ? `${formatBytes(Number(success.file_size))} (${success.file_size} bytes)` : undefined],
    ['Columns', success?.report_schema.join(', ')],
    ['URL expires', success?.url_expires_at],
  ];
}

/** A row of `ads reports run` or `sync`, typed by the report's columns. */
export type SyncRow = Record<string, string | number | boolean>;

/**
 * Columns in the API's order; numbers right-aligned in tables. CSV shows the values as the
 * API wrote them (`12.30`, not `12.3`): `written` gives them for each typed row. Tables and
 * text show money with its currency (`12.30 USD`, from the row's currency_code, which tables
 * then leave out). A table too wide for the terminal leaves out the rightmost columns first,
 * but never an id, the first, or one of `keep` (the columns the rows are sorted by).
 */
export function syncRowView(
  schema: ReadonlyArray<{ name: string; type: string }>,
  written: (row: SyncRow) => readonly string[] | undefined,
  keep: readonly string[] = [],
): View<SyncRow> {
  const currencyAt = schema.findIndex((c) => c.name === 'currency_code');
  const isMoney = (name: string) => currencyAt >= 0 && columnDef(name)?.measure === 'money';
  const hasMoney = schema.some((c) => isMoney(c.name));
  const columns: Column<SyncRow>[] = schema.map(({ name, type }, i) => {
    const csv = (row: SyncRow) => written(row)?.[i];
    const withCurrency = (row: SyncRow) => {
      const value = csv(row);
      const currency = written(row)?.[currencyAt];
      return value === undefined || value === '' || !currency ? value : `${value} ${currency}`;
    };
    return {
      header: name.toUpperCase(),
      name,
      csv,
      ...(isMoney(name) ? { table: withCurrency, text: withCurrency } : {}),
      ...(name === 'currency_code' && hasMoney ? { csvOnly: true } : {}),
      ...(name.endsWith('_id') ? { kind: 'id' as const } : name.endsWith('_name') ? { kind: 'text' as const } : {}),
      ...(type === 'COLUMN_TYPE_INT64' || type === 'COLUMN_TYPE_DOUBLE' ? { align: 'right' as const } : {}),
      ...(type === 'COLUMN_TYPE_DOUBLE' ? { decimal: true } : {}),
      ...(i > 0 && !name.endsWith('_id') && !keep.includes(name) ? { priority: schema.length - i } : {}),
    };
  });
  return { noun: 'rows', columns };
}

/** The API's string values as JSON types: INT64 and DOUBLE as numbers, BOOLEAN as true/false, the rest as text. */
export function typedRow(schema: ReadonlyArray<{ name: string; type: string }>, values: readonly string[]): SyncRow {
  const row: SyncRow = {};
  schema.forEach(({ name, type }, i) => {
    const value = values[i] ?? '';
    if ((type === 'COLUMN_TYPE_INT64' || type === 'COLUMN_TYPE_DOUBLE') && value !== '' && Number.isFinite(Number(value))) row[name] = Number(value);
    else if (type === 'COLUMN_TYPE_BOOLEAN' && (value === 'true' || value === 'false')) row[name] = value === 'true';
    else row[name] = value;
  });
  return row;
}
