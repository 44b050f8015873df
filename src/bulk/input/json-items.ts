// --from-json input: a JSON array, an API body ({"campaigns": [...]}), or NDJSON.
import { UsageError } from '../../base/errors.js';
import { MAX_JSON_DEPTH, shown, tooDeepAt } from '../../schemas/input-limits.js';
import { findRepeatedKey } from './repeated-keys.js';

export interface JsonItem {
  /** 1-based: the array index, or the line of an NDJSON file. */
  position: number;
  value: unknown;
}

/** Parses the items of a JSON document or NDJSON text; `wrapper` is the API body's array key. */
export function parseJsonItems(source: string, wrapper: string, label = '--from-json'): JsonItem[] {
  const trimmed = source.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw new UsageError(`${label}: the input is empty`);
  // Lines before the document, so that a line within it is a line of the input.
  const before = (/^\uFEFF?\s*/.exec(source)?.[0].match(/\n/g) ?? []).length;
  if (trimmed.startsWith('[') || (trimmed.startsWith('{') && !trimmed.includes('\n'))) {
    const document: unknown = parseJson(trimmed, label, before);
    const items: unknown[] | undefined = Array.isArray(document) ? (document as unknown[]) : wrapperItems(document, wrapper);
    return items === undefined ? [{ position: 1, value: document }] : items.map((value, i) => ({ position: i + 1, value }));
  }
  if (trimmed.startsWith('{')) {
    // A pretty-printed single document, or NDJSON: try the document first.
    let document: unknown;
    refuseDeepNesting(trimmed, label, before);
    try {
      document = JSON.parse(trimmed) as unknown;
    } catch {
      document = undefined; // not one document: NDJSON
    }
    if (document !== undefined) {
      refuseRepeatedKeys(trimmed, document, label, before);
      const items = wrapperItems(document, wrapper);
      return items === undefined ? [{ position: 1, value: document }] : items.map((value, i) => ({ position: i + 1, value }));
    }
  }
  const items: JsonItem[] = [];
  source
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((line, index) => {
      if (line.trim() === '') return;
      items.push({ position: index + 1, value: parseJson(line, /\bline \d+$/.test(label) ? label : `${label} line ${index + 1}`) });
    });
  return items;
}

function wrapperItems(document: unknown, wrapper: string): unknown[] | undefined {
  if (document && typeof document === 'object' && !Array.isArray(document)) {
    if (!(wrapper in document)) return undefined;
    const items = (document as Record<string, unknown>)[wrapper];
    if (Array.isArray(items)) return items as unknown[];
    throw new UsageError(
      `--from-json: "${wrapper}" must be an array of items, e.g. {"${wrapper}": [{...}, {...}]}, not ${items === null ? 'null' : typeof items}`,
    );
  }
  return undefined;
}

function parseJson(source: string, label: string, linesBefore = 0): unknown {
  refuseDeepNesting(source, label, linesBefore);
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch (error) {
    throw new UsageError(`${label}: not valid JSON (${(error as Error).message})`);
  }
  refuseRepeatedKeys(source, value, label, linesBefore);
  return value;
}

/** Which of two values of one key was meant is a guess: refused, naming the key and its line. */
function refuseRepeatedKeys(source: string, value: unknown, label: string, linesBefore: number): void {
  const repeated = findRepeatedKey(source, value);
  if (!repeated) return;
  const where = /\bline \d+$/.test(label) ? label : `${label} line ${linesBefore + repeated.line + 1}`;
  throw new UsageError(`${where}: the key ${shown(repeated.key)} is given twice in one object`);
}

/** Deeper nesting than any item has would only exhaust the stack of what reads it next (zod, the key checks). */
function refuseDeepNesting(source: string, label: string, linesBefore: number): void {
  const at = tooDeepAt(source);
  if (at < 0) return;
  const line = linesBefore + (source.slice(0, at).match(/\n/g)?.length ?? 0) + 1;
  const where = /\bline \d+$/.test(label) ? label : `${label} line ${line}`;
  throw new UsageError(`${where}: nested deeper than ${MAX_JSON_DEPTH} levels, the limit of the input`);
}
