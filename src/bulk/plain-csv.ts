// The common case of CSV input, split without a CSV parser: lines with no quote and no CR
// are records whose cells lie between the commas, exactly as csv-parse reads them (blank
// lines skipped, a line of spaces a record, a BOM at the start dropped). csv-parse's
// character-by-character state machine cost more than the rest of the validation pass
// together. At the first line that is not plain (a quote, a CR, a very long line) the
// caller hands the rest of the input to csv-parse (sources.ts).

const NEWLINE = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;
const COMMA = 0x2c;
/** Longer lines go to csv-parse, which holds a record to its size limit. */
const LONGEST_PLAIN_LINE = 64 * 1024;

export type CsvRecord = (cells: string[], line: number) => void;

export class PlainCsvLines {
  /** The start of a line not ended yet. */
  #rest: Buffer | undefined;
  /** The number of the line `#rest` starts (1-based). */
  #line = 1;
  #started = false;

  /** Lines taken so far (blank ones too): the line before the text `push` or `end` hands back. */
  get linesTaken(): number {
    return this.#line - 1;
  }

  /**
   * Gives each whole plain line of `bytes` (UTF-8, cut at a character) to `record`; hands
   * back the text from the first line that is not plain on, for csv-parse, or undefined.
   */
  push(bytes: Buffer, record: CsvRecord): Buffer | undefined {
    let all = this.#rest ? Buffer.concat([this.#rest, bytes]) : bytes;
    if (!this.#started) {
      this.#started = true;
      if (all[0] === 0xef && all[1] === 0xbb && all[2] === 0xbf) all = all.subarray(3);
    }
    // The first quote or CR: every line ending before it is plain.
    const odd = firstOf(all, QUOTE, CR);
    let at = 0;
    for (let end = all.indexOf(NEWLINE); end >= 0; end = all.indexOf(NEWLINE, at)) {
      if (odd < end || end - at > LONGEST_PLAIN_LINE) return all.subarray(at);
      if (end > at) record(cells(all, at, end), this.#line);
      this.#line++;
      at = end + 1;
    }
    if (odd < all.length || all.length - at > LONGEST_PLAIN_LINE) return all.subarray(at);
    // A copy: the rest of a chunk would otherwise hold the whole chunk.
    this.#rest = at < all.length ? Buffer.from(all.subarray(at)) : undefined;
    return undefined;
  }

  /** The last line, when the input does not end with a newline. */
  end(record: CsvRecord): void {
    if (this.#rest) record(cells(this.#rest, 0, this.#rest.length), this.#line);
    this.#rest = undefined;
  }
}

function firstOf(bytes: Buffer, a: number, b: number): number {
  const atA = bytes.indexOf(a);
  const atB = bytes.indexOf(b);
  return Math.min(atA < 0 ? Infinity : atA, atB < 0 ? Infinity : atB);
}

/** The cells of the line bytes[start, end): each its own string (a slice of a chunk would keep the chunk alive). */
function cells(bytes: Buffer, start: number, end: number): string[] {
  const out: string[] = [];
  let at = start;
  // Byte by byte: indexOf would look past the line's end (to the chunk's) for its last cell.
  for (let i = start; i < end; i++) {
    if (bytes[i] !== COMMA) continue;
    out.push(bytes.toString('utf8', at, i));
    at = i + 1;
  }
  out.push(bytes.toString('utf8', at, end));
  return out;
}
