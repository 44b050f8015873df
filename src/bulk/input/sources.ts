// Input rows as a stream: CSV (csv-parse, RFC 4180, BOM, CRLF, quoted newlines, any separator) or JSON
// (an array or API body, read whole; NDJSON, streamed line by line). Each row keeps the
// line it starts on, for messages and results. Both are checked as UTF-8 and held to the
// limits of input-limits.ts while they stream: nothing larger than one limit is held.
import fs from 'node:fs';
import { type Readable } from 'node:stream';
import { UsageError } from '../../base/errors.js';
import { formatBytes, MAX_JSON_DEPTH, MAX_RECORD_BYTES, shown } from '../../schemas/input-limits.js';
import { parseJsonItems } from './json-items.js';
import { RepeatedKeyWatch } from './repeated-keys.js';
import { utf8Chunks } from './utf8-chunks.js';
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
 * given to `onHeader` (which may throw). `delimiter`: the separator (--delimiter), a comma by default.
 */
export async function* csvRows(
  input: Readable,
  onHeader: (header: string[]) => void,
  { delimiter = ',' }: { delimiter?: string } = {},
): AsyncGenerator<CsvRow[]> {
  const { parse } = await import('csv-parse');
  // Blank lines are skipped by the parser itself: a million of them take milliseconds, not
  // the half minute of building a record (and an inconsistent-length error) for each.
  // A record past the limit ends the read there (a 2 GB line with no newline used to be held whole).
  const parser = parse({ bom: true, delimiter, relax_column_count: true, skip_empty_lines: true, max_record_size: MAX_RECORD_BYTES });
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
    // A header refused (a semicolon file read with commas) says why before what its rows then break.
    new Promise<void>((resolve, reject) => feed((error) => (error ? reject(refused ?? notCsv(error)) : resolve())));
  try {
    for await (const chunk of utf8Chunks(input, '--from-csv')) {
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
  if ((error as { code?: string }).code === 'CSV_MAX_RECORD_SIZE') {
    return new UsageError(`--from-csv line ${where ?? 1}: a record longer than ${formatBytes(MAX_RECORD_BYTES)}, the limit of one row`);
  }
  return new UsageError(`--from-csv: not valid CSV${where ? ` at line ${where}` : ''}: ${error.message}`);
}

export interface JsonRow {
  /** The line of an NDJSON record, or the index of an item in a JSON array or body. */
  line: number;
  unit: 'line' | 'item';
  value: unknown;
}

/** A pretty-printed document up to this size is parsed whole (it may be a single item). */
const SMALL_DOCUMENT = MAX_RECORD_BYTES;

const tooLarge = (what: string) => `larger than ${formatBytes(MAX_RECORD_BYTES)}, the limit of one ${what}`;
const tooDeep = `nested deeper than ${MAX_JSON_DEPTH} levels, the limit of the input`;

/**
 * --from-json rows, streamed whatever the size: a top-level array item by item
 * (stream-json), NDJSON line by line, an API body ({"campaigns": [...]}) item by item.
 */
export async function* jsonRows(input: Readable, wrapper: string): AsyncGenerator<JsonRow> {
  const chunks = (async function* () {
    for await (const bytes of utf8Chunks(input, '--from-json')) yield bytes.toString('utf8');
  })();
  let head = '';
  let ended = false;
  const pull = async (): Promise<boolean> => {
    const next = await chunks.next();
    if (next.done) ended = true;
    else head += next.value;
    return !next.done;
  };
  // Look at the start: the first character, and for objects, whether the first line is a whole value.
  // Blank space has a limit too: an endless stream of it would otherwise be held whole.
  while (!/[^\s\uFEFF]/.test(head) && (await pull())) {
    if (head.length > MAX_RECORD_BYTES && !/[^\s\uFEFF]/.test(head))
      throw new UsageError(`--from-json: more than ${formatBytes(MAX_RECORD_BYTES)} of blank space before the first value`);
  }
  head = head.replace(/^\uFEFF/, '');
  const first = head.trimStart()[0];
  if (first === undefined) throw new UsageError('--from-json: the input is empty');
  const rest = (): AsyncIterable<string> =>
    (async function* () {
      yield head;
      yield* chunks;
    })();

  if (first === '[') {
    yield* streamedItems(rest(), undefined);
    return;
  }
  // The first line, up to the limit of one line: NDJSON, or the start of a document.
  while (!head.includes('\n') && !ended && head.length <= MAX_RECORD_BYTES) await pull();
  const newline = head.indexOf('\n');
  const firstLine = newline >= 0 || ended ? head.slice(0, newline >= 0 ? newline : undefined).trim() : undefined;
  if (firstLine !== undefined && first === '{' && firstLine.length <= MAX_RECORD_BYTES && isCompleteJson(firstLine)) {
    for await (const { line, text } of boundedLines(rest())) {
      if (text.trim() === '') continue;
      const items = parseJsonItems(text, wrapper, `--from-json line ${line}`);
      yield* items.map((item) =>
        items.length > 1 ? { line: item.position, unit: 'item' as const, value: item.value } : { line, unit: 'line' as const, value: item.value },
      );
    }
    return;
  }
  // A document over several lines (or one line past the limit): small ones are parsed whole, large ones streamed.
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

/** NDJSON lines (1-based numbers, a CR before the LF dropped), each held to the limit of one line. */
async function* boundedLines(source: AsyncIterable<string>): AsyncGenerator<{ line: number; text: string }> {
  let partial = '';
  let line = 1;
  const ended = (text: string) => ({ line: line++, text: text.endsWith('\r') ? text.slice(0, -1) : text });
  for await (const chunk of source) {
    let at = 0;
    for (let end = chunk.indexOf('\n'); end >= 0; end = chunk.indexOf('\n', at)) {
      const text = partial + chunk.slice(at, end);
      partial = '';
      if (text.length > MAX_RECORD_BYTES) throw new UsageError(`--from-json line ${line}: ${tooLarge('line')}`);
      yield ended(text);
      at = end + 1;
    }
    partial += chunk.slice(at);
    if (partial.length > MAX_RECORD_BYTES) throw new UsageError(`--from-json line ${line}: ${tooLarge('line')}`);
  }
  if (partial !== '') yield ended(partial);
}

/**
 * A large document's items, one at a time. The text goes to stream-json's parser line by
 * line, through the synchronous form of its pipeline (stream-chain's fun), so every token
 * comes out while the line holding it is known: a key given twice is named with its line.
 * No item may be larger than the limit nor nest deeper: both are checked as the text goes in.
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
    if (repeated) throw new UsageError(`--from-json line ${line}: the key ${shown(repeated.key)} is given twice in one object`);
    if (watch.depth > MAX_JSON_DEPTH) throw new UsageError(`--from-json line ${line}: ${tooDeep}`);
    return token;
  };
  // Every stage is synchronous, so the composed pipeline hands back its items at once (a Many, never a promise).
  type Item = { key: number; value: unknown };
  const items = fun(parser({ packKeys: true }), ...(wrapper ? [pick({ filter: wrapper })] : []), checked, streamArray()) as (
    text: string | typeof none,
  ) => Many<Item>;
  // Text read since the last item came out: more than the limit is an item too large (or no item at all).
  let sinceItem = 0;
  let nextItem = 1;
  const take = (text: string | typeof none): JsonRow[] => {
    let rows: JsonRow[];
    try {
      rows = getManyValues(items(text)).map(({ key, value }) => ({ line: key + 1, unit: 'item', value }));
    } catch (error) {
      if (error instanceof UsageError) throw error;
      const where = text === none ? 'at the end of the input' : `line ${line}`;
      throw new UsageError(`--from-json ${where}: not valid JSON (${(error as Error).message})`);
    }
    if (rows.length) {
      sinceItem = 0;
      nextItem = rows.at(-1)!.line + 1;
    } else if (typeof text === 'string' && (sinceItem += text.length) > MAX_RECORD_BYTES) {
      throw new UsageError(`--from-json item ${nextItem} (line ${line}): ${tooLarge('item')}`);
    }
    return rows;
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
