// The records of the API's report CSV as bytes: where each one ends (a line feed outside
// quotes, so a quoted cell may hold line breaks) and its cells. --sort and --limit with --out
// reorder and cut whole records and never rewrite one, so the saved file keeps the API's
// bytes: the same cell text, quoting and line ends.

const QUOTE = 0x22;
const LF = 0x0a;

/** Finds record ends in bytes given in pieces (a download's chunks): quoting carries over. */
export class RecordEnds {
  #quoted = false;

  /** The offsets just past each record end (after its `\n`) in `chunk`. */
  *in(chunk: Uint8Array): Generator<number> {
    let at = 0;
    // The next quote at or after `at` (chunk.length: none), looked up again only once passed:
    // a file without quotes is scanned once, not once per line.
    let quote = -1;
    const nextQuote = () => {
      if (quote < at) {
        const found = chunk.indexOf(QUOTE, at);
        quote = found < 0 ? chunk.length : found;
      }
      return quote;
    };
    while (at < chunk.length) {
      if (this.#quoted) {
        if (nextQuote() === chunk.length) return;
        this.#quoted = false;
        at = quote + 1;
        continue;
      }
      const lf = chunk.indexOf(LF, at);
      if (nextQuote() < (lf < 0 ? chunk.length : lf)) {
        // `""` inside a quoted cell closes and reopens it: the state comes out right.
        this.#quoted = true;
        at = quote + 1;
        continue;
      }
      if (lf < 0) return;
      at = lf + 1;
      yield at;
    }
  }
}

/** The records of a whole file, each with its line end (the last one may have none); no copies. */
export function splitRecords(bytes: Buffer): Buffer[] {
  const records: Buffer[] = [];
  let start = 0;
  for (const end of new RecordEnds().in(bytes)) {
    records.push(bytes.subarray(start, end));
    start = end;
  }
  if (start < bytes.length) records.push(bytes.subarray(start));
  return records;
}

/** The line end a record closes with: `\r\n`, `\n`, or `` for a last record without one. */
export function lineEnd(record: Buffer): string {
  if (record.at(-1) !== LF) return '';
  return record.at(-2) === 0x0d ? '\r\n' : '\n';
}

/**
 * One record's cells (RFC 4180: a quoted cell may hold commas, line breaks and `""` for a
 * quote), its line end left out. Unquoted cells are sliced, not built a character at a time.
 */
export function recordCells(record: Buffer): string[] {
  const text = record.toString('utf8', 0, record.length - lineEnd(record).length);
  if (!text.includes('"')) return text.split(',');
  const cells: string[] = [];
  let at = 0;
  for (;;) {
    let cell = '';
    if (text[at] === '"') {
      let from = at + 1;
      for (;;) {
        const quote = text.indexOf('"', from);
        if (quote < 0) {
          cell += text.slice(from);
          at = text.length;
          break;
        }
        cell += text.slice(from, quote);
        from = quote + 1;
        if (text[from] !== '"') {
          at = from;
          break;
        }
        cell += '"';
        from++;
      }
    }
    const comma = text.indexOf(',', at);
    cells.push(cell + text.slice(at, comma < 0 ? text.length : comma));
    if (comma < 0) return cells;
    at = comma + 1;
  }
}
