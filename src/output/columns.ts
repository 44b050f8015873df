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
  /**
   * How the column gives way when a table is wider than the terminal (table.ts):
   * - 'id': never. Ids, codes, names a user types back (a profile, a report column): never
   *   cut, nor their header; the line gets wider than the terminal rather than cut one.
   * - 'words': wraps onto more lines between words, never inside one (lists of names, the
   *   dry run's changes, descriptions worth reading whole).
   * - 'text': free text (names): shrinks first, ending in an ellipsis.
   * - unset: short values (statuses, amounts, dates): cut only when every 'text' and
   *   'words' column is at its narrowest and every optional column is left out.
   */
  kind?: 'id' | 'words' | 'text';
  /** Left out of a table that would not fit the terminal otherwise (the rightmost first); `-o wide` shows it. */
  optional?: boolean;
}

export interface View<T> {
  /** Plural noun for messages, e.g. "campaigns". */
  noun: string;
  columns: ReadonlyArray<Column<T>>;
}
