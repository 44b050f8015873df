// Input rows as a stream: CSV (csv-parse, RFC 4180, BOM, CRLF, quoted newlines) or JSON
// (an array or API body, read whole; NDJSON, streamed line by line). Each row keeps the
// line it starts on, for messages and results.
import fs from 'node:fs';
import readline from 'node:readline';
import type { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { parseJsonItems } from './json-items.js';

export interface CsvRow {
  line: number;
  cells: Record<string, string>;
  /** Set when the row has more or fewer fields than the header. */
  fieldCountProblem?: string;
}

export function openInput(file: string, stdin: Readable, flag: string): Readable {
  if (file === '-') return stdin;
  if (!fs.existsSync(file)) throw new UsageError(`${flag}: no such file ${file}`);
  return fs.createReadStream(file);
}

/** Streams CSV records; the first is the header, given to `onHeader` (which may throw). */
export async function* csvRows(input: Readable, onHeader: (header: string[]) => void): AsyncGenerator<CsvRow> {
  const { parse } = await import('csv-parse');
  const parser = input.pipe(parse({ bom: true, relax_column_count: true, raw: true, skip_empty_lines: false }));
  let header: string[] | undefined;
  let nextLine = 1;
  try {
    for await (const { record, raw } of parser as AsyncIterable<{ record: string[]; raw: string }>) {
      // csv-parse's own line count takes a quoted CRLF for two lines; count the record's breaks instead.
      const line = nextLine;
      nextLine += 1 + (raw.replace(/(\r\n|\r|\n)$/, '').match(/\r\n|\r|\n/g)?.length ?? 0);
      if (record.length === 1 && record[0] === '') continue; // a blank line
      if (!header) {
        header = record.map((name) => name.trim());
        onHeader(header);
        continue;
      }
      const cells: Record<string, string> = {};
      header.forEach((name, i) => {
        cells[name] = record[i] ?? '';
      });
      const fieldCountProblem = record.length === header.length ? undefined
        : `${record.length} fields, the header has ${header.length}`;
      yield { line, cells, fieldCountProblem };
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const where = (error as { lines?: number }).lines;
    throw new UsageError(`--from-csv: not valid CSV${where ? ` at line ${where}` : ''}: ${(error as Error).message}`);
  }
  if (!header) throw new UsageError('--from-csv: the input is empty (a header row is required)');
}

export interface JsonRow {
  /** The line of an NDJSON record, or the index of an item in a JSON array or body. */
  line: number;
  unit: 'line' | 'item';
  value: unknown;
}

/** JSON array / API body (read whole) or NDJSON (streamed). */
export async function* jsonRows(input: Readable, wrapper: string): AsyncGenerator<JsonRow> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity });
  let lineNumber = 0;
  let buffered: string[] | undefined;
  for await (const raw of lines) {
    lineNumber++;
    const text = lineNumber === 1 ? raw.replace(/^\uFEFF/, '') : raw;
    if (buffered) {
      buffered.push(text);
      continue;
    }
    if (text.trim() === '') continue;
    const trimmed = text.trim();
    // A document that does not fit on its line (an array, a pretty-printed object) is read whole.
    if (trimmed.startsWith('[') || !isCompleteJson(trimmed)) {
      buffered = [text];
      continue;
    }
    const items = parseJsonItems(trimmed, wrapper);
    yield* items.map((item) => (items.length > 1 ? { line: item.position, unit: 'item' as const, value: item.value } : { line: lineNumber, unit: 'line' as const, value: item.value }));
  }
  if (buffered) {
    for (const item of parseJsonItems(buffered.join('\n'), wrapper)) yield { line: item.position, unit: 'item', value: item.value };
  } else if (lineNumber === 0) {
    throw new UsageError('--from-json: the input is empty');
  }
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
