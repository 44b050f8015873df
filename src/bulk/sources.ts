// Input rows as a stream: CSV (csv-parse, RFC 4180, BOM, CRLF, quoted newlines) or JSON
// (an array or API body, read whole; NDJSON, streamed line by line). Each row keeps the
// line it starts on, for messages and results.
import fs from 'node:fs';
import readline from 'node:readline';
import { Readable } from 'node:stream';
import { UsageError } from '../errors.js';
import { parseJsonItems } from './json-items.js';
import { RepeatedKeyWatch } from './repeated-keys.js';
import type { Many } from 'stream-chain/defs.js';

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

/**
 * Streams CSV rows, as the rows of each chunk of input; the first record is the header,
 * given to `onHeader` (which may throw).
 */
export async function* csvRows(input: Readable, onHeader: (header: string[]) => void): AsyncGenerator<CsvRow[]> {
  const { parse } = await import('csv-parse');
  // Blank lines are skipped by the parser itself: a million of them take milliseconds, not
  // the half minute of building a record (and an inconsistent-length error) for each.
  const parser = parse({ bom: true, relax_column_count: true, skip_empty_lines: true });
  let header: string[] | undefined;
  const rows: CsvRow[] = [];
  let refused: Error | undefined;
  // csv-parse counts a CRLF inside quotes as two lines: its count is corrected by those seen.
  let quotedCrlf = 0;
  // The parser's own count of lines, read as each record comes out: records come out while
  // the chunk they end in is parsed (the parser is fed one chunk at a time, below), so the
  // count is where the record ends. (csv-parse's per-record `info` costs twice the parse.)
  parser.on('data', (record: string[]) => {
    if (refused) return;
    let breaks = 0;
    for (const cell of record) {
      if (!cell.includes('\n') && !cell.includes('\r')) continue;
      quotedCrlf += cell.match(/\r\n/g)?.length ?? 0;
      breaks += cell.match(/\r\n|\r|\n/g)?.length ?? 0;
    }
    const line = parser.info.lines - quotedCrlf - breaks;
    if (!header) {
      header = record.map((name) => name.trim());
      const twice = header.find((name, i) => header!.indexOf(name) !== i);
      try {
        // Two cells for one column: which one wins would be a guess (a patch to the wrong id).
        if (twice !== undefined) throw new UsageError(`--from-csv line ${line}: the header has the column "${twice}" twice`);
        onHeader(header);
      } catch (error) {
        refused = error as Error;
      }
      return;
    }
    const cells: Record<string, string> = {};
    for (let i = 0; i < header.length; i++) cells[header[i]!] = record[i] ?? '';
    const fieldCountProblem = record.length === header.length ? undefined : `${record.length} fields, the header has ${header.length}`;
    rows.push({ line, cells, fieldCountProblem });
  });
  parser.on('error', () => undefined); // errors come through the write callbacks below
  const parsed = (feed: (done: (error?: Error | null) => void) => void) =>
    new Promise<void>((resolve, reject) => feed((error) => (error ? reject(notCsv(error)) : resolve())));
  try {
    for await (const chunk of input) {
      await parsed((done) => parser.write(chunk, done));
      if (refused) throw refused;
      if (rows.length) yield rows.splice(0);
    }
    await parsed((done) => parser.end(done));
    if (refused) throw refused;
    if (rows.length) yield rows.splice(0);
  } finally {
    parser.destroy();
  }
  if (!header) throw new UsageError('--from-csv: the input is empty (a header row is required)');
}

function notCsv(error: Error): Error {
  if (error instanceof UsageError) return error;
  const where = (error as { lines?: number }).lines;
  return new UsageError(`--from-csv: not valid CSV${where ? ` at line ${where}` : ''}: ${error.message}`);
}

export interface JsonRow {
  /** The line of an NDJSON record, or the index of an item in a JSON array or body. */
  line: number;
  unit: 'line' | 'item';
  value: unknown;
}

/** A pretty-printed document up to this size is parsed whole (it may be a single item). */
const SMALL_DOCUMENT = 1 << 20;

/**
 * --from-json rows, streamed whatever the size: a top-level array item by item
 * (stream-json), NDJSON line by line, an API body ({"campaigns": [...]}) item by item.
 */
export async function* jsonRows(input: Readable, wrapper: string): AsyncGenerator<JsonRow> {
  input.setEncoding('utf8');
  const chunks = input[Symbol.asyncIterator]() as AsyncIterator<string>;
  let head = '';
  let ended = false;
  const pull = async (): Promise<boolean> => {
    const next = await chunks.next();
    if (next.done) ended = true;
    else head += next.value;
    return !next.done;
  };
  // Look at the start: the first character, and for objects, whether the first line is a whole value.
  while (head.replace(/^\uFEFF/, '').trim() === '' && (await pull()));
  head = head.replace(/^\uFEFF/, '');
  const first = head.trimStart()[0];
  if (first === undefined) throw new UsageError('--from-json: the input is empty');
  const rest = (): Readable =>
    Readable.from(
      (async function* () {
        yield head;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield next.value;
      })(),
    );

  if (first === '[') {
    yield* streamedItems(rest(), undefined);
    return;
  }
  while (!head.includes('\n') && !ended) await pull();
  const firstLine = head.slice(0, head.includes('\n') ? head.indexOf('\n') : undefined).trim();
  if (isCompleteJson(firstLine) && first === '{' && (head.includes('\n') || ended)) {
    let lineNumber = 0;
    for await (const raw of readline.createInterface({ input: rest(), crlfDelay: Infinity })) {
      lineNumber++;
      if (raw.trim() === '') continue;
      const items = parseJsonItems(raw, wrapper, `--from-json line ${lineNumber}`);
      yield* items.map((item) =>
        items.length > 1 ? { line: item.position, unit: 'item' as const, value: item.value } : { line: lineNumber, unit: 'line' as const, value: item.value },
      );
    }
    return;
  }
  // A document over several lines: small ones are parsed whole, large ones streamed.
  while (!ended && head.length <= SMALL_DOCUMENT) await pull();
  if (ended) {
    for (const item of parseJsonItems(head, wrapper)) yield { line: item.position, unit: 'item', value: item.value };
    return;
  }
  let count = 0;
  for await (const row of streamedItems(rest(), wrapper)) {
    count++;
    yield row;
  }
  if (count === 0) throw new UsageError(`--from-json: a large document must be an array or an API body {"${wrapper}": [...]}`);
}

/**
 * A large document's items, one at a time. The text goes to stream-json's parser line by
 * line, through the synchronous form of its pipeline (stream-chain's fun), so every token
 * comes out while the line holding it is known: a key given twice is named with its line.
 */
async function* streamedItems(source: AsyncIterable<string>, wrapper: string | undefined): AsyncGenerator<JsonRow> {
  const [{ parser }, { pick }, { streamArray }, { fun }, { none, getManyValues }] = await Promise.all([
    import('stream-json/index.js'),
    import('stream-json/filters/pick.js'),
    import('stream-json/streamers/stream-array.js'),
    import('stream-chain/fun.js'),
    import('stream-chain/defs.js'),
  ]);
  const watch = new RepeatedKeyWatch();
  let line = 1;
  const checked = (token: { name: string; value?: unknown }) => {
    const repeated = watch.token(token.name, token.value);
    if (repeated) throw new UsageError(`--from-json line ${line}: the key "${repeated.key}" is given twice in one object`);
    return token;
  };
  // Every stage is synchronous, so the composed pipeline hands back its items at once (a Many, never a promise).
  type Item = { key: number; value: unknown };
  const items = fun(parser({ packKeys: true }), ...(wrapper ? [pick({ filter: wrapper })] : []), checked, streamArray()) as (
    text: string | typeof none,
  ) => Many<Item>;
  const take = (text: string | typeof none): JsonRow[] => {
    try {
      return getManyValues(items(text)).map(({ key, value }) => ({ line: key + 1, unit: 'item', value }));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const where = text === none ? 'at the end of the input' : `line ${line}`;
      throw new UsageError(`--from-json ${where}: not valid JSON (${(error as Error).message})`);
    }
  };
  for await (const chunk of source) {
    for (let at = 0; at < chunk.length;) {
      const end = chunk.indexOf('\n', at);
      const piece = end < 0 ? chunk.slice(at) : chunk.slice(at, end + 1);
      yield* take(piece);
      if (end < 0) break;
      line++;
      at = end + 1;
    }
  }
  yield* take(none);
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
