// The records of a report CSV as bytes (what --sort and --limit with --out reorder and cut):
// record ends outside quotes whatever the chunks a download brings, cells as csv-parse reads
// them, arrangeCsv keeping every record's bytes, and TopRecords (the top rows kept as the file
// streams by) giving what arrangeCsv gives for the whole file.
import fc from 'fast-check';
import { parse } from 'csv-parse/sync';
import { describe, expect, it } from 'vitest';
import { arrangeCsv } from '../../src/commands/ads/reports/arrange.js';
import { RecordEnds, recordCells, splitRecords } from '../../src/commands/ads/reports/csv-records.js';
import { TopRecords } from '../../src/commands/ads/reports/top-records.js';

const cell = fc.oneof(fc.string({ unit: fc.constantFrom('a', 'ü', ',', '"', '\n', '\r\n', ' ', '1', '.'), minLength: 1 }), fc.integer().map(String));
const quoted = (text: string) => (/[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
/** A CSV file of 1-6 columns, with its line end, and whether the last record has one. */
const csvFile = fc
  .record({
    width: fc.integer({ min: 1, max: 6 }),
    end: fc.constantFrom('\n', '\r\n'),
    lastEnd: fc.boolean(),
    rows: fc.integer({ min: 0, max: 8 }),
  })
  .chain(({ width, end, lastEnd, rows }) =>
    fc.array(fc.array(cell, { minLength: width, maxLength: width }), { minLength: rows + 1, maxLength: rows + 1 }).map((records) => ({
      records,
      end,
      text: records.map((r) => r.map(quoted).join(',')).join(end) + (lastEnd ? end : ''),
    })),
  );

describe('report CSV records', () => {
  it('split into the records csv-parse reads, each with its own bytes, whatever the chunks', () => {
    fc.assert(
      fc.property(csvFile, fc.array(fc.nat(), { maxLength: 6 }), ({ records, text }, cuts) => {
        const bytes = Buffer.from(text);
        const split = splitRecords(bytes);
        expect(Buffer.concat(split).equals(bytes)).toBe(true);
        expect(split.map(recordCells)).toEqual(records);
        expect(split.map(recordCells)).toEqual(parse(bytes, { relax_column_count: true }));
        // Fed in pieces, the ends are the same offsets.
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        const ends = new RecordEnds();
        const found: number[] = [];
        let from = 0;
        for (const to of [...at, bytes.length]) {
          for (const end of ends.in(bytes.subarray(from, to))) found.push(from + end);
          from = to;
        }
        expect(found).toEqual([...new RecordEnds().in(bytes)]);
      }),
    );
  });

  it('arrangeCsv keeps the header and each record as they were, one line end after each', () => {
    const body = Buffer.from('\uFEFFcampaign_id,clicks\r\nb,"1\n0"\r\nc,9\r\na,10');
    const pieces = arrangeCsv(body, ['-clicks'], 2, 'report_x');
    expect(Buffer.concat(pieces).toString()).toBe('\uFEFFcampaign_id,clicks\r\na,10\r\nc,9\r\n');
  });

  it('arrangeCsv names an unknown --sort column and an empty file', () => {
    expect(() => arrangeCsv(Buffer.from('campaign_id,clicks\n'), ['spend'], undefined, 'report_x')).toThrow(/--sort spend: "spend" is not a column/);
    expect(() => arrangeCsv(Buffer.alloc(0), ['clicks'], undefined, 'report_x')).toThrow(/report report_x: the file is empty/);
  });
});

describe('TopRecords', () => {
  /** A report of names (any text) and clicks (ties, empty cells), CRLF or LF, with or without a last line end. */
  const report = fc
    .record({
      rows: fc.array(fc.tuple(fc.string({ unit: fc.constantFrom('a', 'b', ',', '"', '\n', 'ü') }), fc.constantFrom('', '0', '1', '2', '10', '-3', '2.5')), {
        maxLength: 30,
      }),
      end: fc.constantFrom('\n', '\r\n'),
      lastEnd: fc.boolean(),
      bom: fc.boolean(),
    })
    .map(({ rows, end, lastEnd, bom }) =>
      Buffer.from(
        `${bom ? '\uFEFF' : ''}campaign_name,clicks${rows.length ? end : ''}` +
          rows.map(([name, clicks]) => `${quoted(name)},${clicks}`).join(end) +
          (lastEnd && rows.length ? end : ''),
      ),
    );
  const sorts = fc.constantFrom(['-clicks'], ['clicks'], ['campaign_name'], ['-clicks', 'campaign_name'], ['-campaign_name']);

  it('gives what arrangeCsv gives for the whole file, whatever the chunks and the limit', () => {
    fc.assert(
      fc.property(report, sorts, fc.integer({ min: 1, max: 12 }), fc.array(fc.nat(), { maxLength: 8 }), (bytes, sort, limit, cuts) => {
        const top = new TopRecords(sort, limit, 'report_x');
        const at = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
        let from = 0;
        for (const to of [...at, bytes.length]) {
          top.write(bytes.subarray(from, to));
          from = to;
        }
        expect(Buffer.concat(top.end()).toString()).toBe(Buffer.concat(arrangeCsv(bytes, sort, limit, 'report_x')).toString());
      }),
    );
  });

  it('names a --sort column the header does not have, once the file is read, and an empty file', () => {
    const top = new TopRecords(['spend'], 5, 'report_x');
    top.write(Buffer.from('campaign_id,clicks\nc1,5\n'));
    expect(() => top.end()).toThrow(/--sort spend: "spend" is not a column/);
    expect(() => new TopRecords(['clicks'], 5, 'report_x').end()).toThrow(/report report_x: the file is empty/);
  });
});
