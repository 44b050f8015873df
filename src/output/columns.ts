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
  /** A decimal (1234.56): -o csv --decimal-comma writes it 1234,56. */
  decimal?: boolean;
  /** Numbers line up on the right in tables. */
  align?: 'right';
  /** Leave out of tables (CSV only). */
  csvOnly?: boolean;
  /** Leave out of CSV (tables only): CSV carries only what `--from-csv` reads back. */
  tableOnly?: boolean;
  /**
   * How the column gives way when a table is wider than the terminal (table.ts). Nothing is
   * ever cut: a cell that gets narrower than its value wraps onto more lines of its row.
   * - 'id': never. Ids, codes, names a user types back (a profile, a report column): never
   *   narrowed, nor their header; the line gets wider than the terminal rather than break one.
   * - 'words': wraps between words, onto as many lines as it needs (lists of names, the dry
   *   run's changes, descriptions worth reading whole): the first to give way.
   * - 'text': free text (names): wraps onto a second line before any column is left out.
   * - unset: short values (statuses, amounts, dates) stay on one line until every optional
   *   column is left out; a value of up to 12 characters is never broken.
   */
  kind?: 'id' | 'words' | 'text';
  /**
   * A list ("Base Fare $2.20, Time $2.06"): the separator of its items, ending in one space.
   * Lines break between items, an item's words kept together unless it is wider than the cell.
   */
  separator?: string;
  /**
   * Makes the column optional in tables: one too wide for the terminal leaves out optional
   * columns, the lowest priority first (those of one priority together), before any name wraps
   * past a second line, then brings back the most important ones that fit. `-o wide` shows all.
   */
  priority?: number;
  /** The value in `-o text` when it is not the CSV value (money with its currency: "455.00 USD"). */
  text?: (row: T) => string | undefined;
}

export interface View<T> {
  /** Plural noun for messages, e.g. "campaigns". */
  noun: string;
  columns: ReadonlyArray<Column<T>>;
}
