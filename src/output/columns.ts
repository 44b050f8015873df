/** One column of a resource's view: its header in tables, its name in CSV, and how to read it. */
export interface Column<T> {
  /** Header in tables, e.g. "BUDGET". */
  header: string;
  /** Column name in CSV; the same names `--from-csv` reads. */
  name: string;
  /** Plain value for CSV (exact, machine-readable). */
  csv: (row: T) => string | undefined;
  /** Value for tables (friendly); defaults to the CSV value. */
  table?: (row: T) => string | undefined;
  /** Numbers line up on the right in tables. */
  align?: 'right';
  /** Leave out of tables (CSV only). */
  csvOnly?: boolean;
  /** Leave out of CSV (tables only): CSV carries only what `--from-csv` reads back. */
  tableOnly?: boolean;
}

export interface View<T> {
  /** Plural noun for messages, e.g. "campaigns". */
  noun: string;
  columns: ReadonlyArray<Column<T>>;
}
