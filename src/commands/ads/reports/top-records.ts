// --sort with a small --limit and --out: the top N rows of the API's CSV kept as the file
// streams by, so "the five highest-spend campaigns" of a report of a million rows holds five
// records in memory, not the file. The result is what arrangeCsv gives for the whole file.
import { CommandError } from '../../../base/errors.js';
import { compareValues, headerColumns, sortKeys, sortValue, withLineEnds, type SortKey } from './arrange.js';
import { RecordEnds, recordCells } from './csv-records.js';

/** Up to this --limit the top rows are kept as they stream; past it the file is read and sorted whole. */
export const TOP_RECORDS_MAX = 10_000;

interface Kept {
  values: Array<number | string>;
  record: Buffer;
}

export class TopRecords {
  readonly #ends = new RecordEnds();
  /** The start of a record that continues in the next chunk. */
  #carry: Buffer[] = [];
  #header: Buffer | undefined;
  #keys: SortKey[] = [];
  /** A --sort column the file's header does not have: said once the download is done. */
  #problem: Error | undefined;
  /** The best rows so far, in order; a later row goes after the ones it ties with. */
  readonly #kept: Kept[] = [];

  constructor(
    private readonly sort: readonly string[],
    private readonly limit: number,
    private readonly reportId: string,
  ) {}

  write(chunk: Buffer): void {
    if (this.#problem) return;
    let start = 0;
    for (const end of this.#ends.in(chunk)) {
      this.#take(this.#whole(chunk.subarray(start, end)));
      start = end;
    }
    // Copied: a view would hold the whole chunk in memory for a few bytes.
    if (start < chunk.length) this.#carry.push(Buffer.from(chunk.subarray(start)));
  }

  /** The header and the top records, each with a line end (the header's, for one that had none). */
  end(): Buffer[] {
    if (this.#carry.length > 0 && !this.#problem) this.#take(this.#whole(Buffer.alloc(0)));
    if (this.#problem) throw this.#problem;
    if (!this.#header) throw new CommandError(`report ${this.reportId}: the file is empty (no header)`);
    return withLineEnds(
      this.#header,
      this.#kept.map(({ record }) => record),
    );
  }

  #whole(tail: Buffer): Buffer {
    if (this.#carry.length === 0) return tail;
    const record = Buffer.concat([...this.#carry, tail]);
    this.#carry = [];
    return record;
  }

  #take(record: Buffer): void {
    if (!this.#header) {
      this.#header = Buffer.from(record);
      try {
        this.#keys = sortKeys(this.sort, headerColumns(record));
      } catch (error) {
        this.#problem = error as Error;
      }
      return;
    }
    if (this.#problem) return;
    const cells = recordCells(record);
    const values = this.#keys.map((key) => sortValue(cells[key.index] ?? '', key.numeric));
    // The first kept row that sorts after this one: ties stay in the file's order.
    let low = 0;
    let high = this.#kept.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (compareValues(this.#kept[middle]!.values, values, this.#keys) <= 0) low = middle + 1;
      else high = middle;
    }
    if (low >= this.limit) return;
    this.#kept.splice(low, 0, { values, record: Buffer.from(record) });
    if (this.#kept.length > this.limit) this.#kept.pop();
  }
}
