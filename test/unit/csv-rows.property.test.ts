// CSV input: plain lines are split without csv-parse (plain-csv.ts) and the rest of the input
// from the first quote or CR on goes to csv-parse. Whatever the text and however its bytes
// are cut into chunks, the rows (cells, line numbers, field-count problems) and the errors
// are those of csv-parse reading the whole input, as every row was read before.
import { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvRows, type CsvRow } from '../../src/bulk/sources.js';

/** csvRows as it was, csv-parse alone on the whole text (its options and its line count). */
async function reference(text: string): Promise<CsvRow[] | string> {
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  let quotedCrlf = 0;
  parser.on('data', (record: string[]) => {
    let breaks = 0;
    for (const cell of record) {
      if (!cell.includes('\n') && !cell.includes('\r')) continue;
      quotedCrlf += cell.match(/\r\n/g)?.length ?? 0;
      breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
    }
    const line = parser.info.lines - quotedCrlf - breaks;
    if (!header) {
      header = record.map((name) => name.trim());
      return;
    }
    const cells: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) cells[header[i]!] = record[i] ?? '';
    rows.push({ line, cells, fieldCountProblem: record.length === header.length ? undefined : `${record.length} fields, the header has ${header.length}` });
  });
  const failed = await new Promise<boolean>((resolve) => {
    parser.on('error', () => resolve(true));
    parser.on('end', () => resolve(false));
    parser.end(text);
  });
  if (failed) return 'not CSV';
  return header ? rows : 'empty';
}

async function read(chunks: Buffer[]): Promise<CsvRow[] | string> {
  const rows: CsvRow[] = [];
  try {
    for await (const chunk of csvRows(Readable.from(chunks), () => undefined)) rows.push(...chunk);
  } catch (error) {
    const message = (error as Error).message;
    return message.includes('not valid CSV') ? 'not CSV' : message.includes('is empty') ? 'empty' : message;
  }
  return rows;
}

const cutAt = (bytes: Buffer, cuts: number[]): Buffer[] => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  return [...points, bytes.length].map((end, i) => bytes.subarray(i === 0 ? 0 : points[i - 1]!, end)).filter((b) => b.length);
};

/** Headers with distinct names (a repeated one is refused), then lines of cells, blanks, quotes, CRs. */
const csvText = fc
  .tuple(
    fc.boolean(),
    fc.uniqueArray(fc.constantFrom('a', 'b', 'c', 'd'), { minLength: 1, maxLength: 4 }),
    fc.array(fc.stringMatching(/^[xé ,"\r\n]{0,12}$/), { maxLength: 12 }),
    fc.constantFrom('\n', '\r\n', ''),
  )
  .map(([bom, header, lines, last]) => `${bom ? '\uFEFF' : ''}${header.join(',')}\n${lines.join('\n')}${last}`);

describe('csvRows', () => {
  it('reads any text, cut into chunks anywhere, as csv-parse reads it whole (property)', async () => {
    await fc.assert(
      fc.asyncProperty(csvText, fc.array(fc.nat(), { maxLength: 6 }), async (text, cuts) => {
        expect(await read(cutAt(Buffer.from(text), cuts))).toEqual(await reference(text));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps the line numbers and the LF line ends of plain lines when csv-parse takes over at a quote or a CR', async () => {
    const text = 'a,b\n\n1,2\n"x\ny",3\n4,5\r\n6\n';
    const rows = await read([Buffer.from(text)]);
    expect(rows).toEqual(await reference(text));
    expect(rows).toMatchObject([
      { line: 3, cells: { a: '1', b: '2' } },
      { line: 4, cells: { a: 'x\ny', b: '3' } },
      { line: 6, cells: { a: '4', b: '5\r' } },
      { cells: { a: '6', b: '' }, fieldCountProblem: '1 fields, the header has 2' },
    ]);
  });
});
