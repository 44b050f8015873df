// A JSON object with a key twice: JSON.parse lets the last one win silently (a patch sent to
// the wrong id). Found with jsonc-parser (its ESM build: the UMD one does not bundle), which reports where each key is; a cheap count
// first spares that second parse for the documents that cannot have one.
import { visit } from 'jsonc-parser/lib/esm/main.js';

export interface RepeatedKey {
  key: string;
  /** 0-based line of the second occurrence, within the text given. */
  line: number;
}

/** The first key given twice in one object of `text` (valid JSON, already parsed to `value`). */
export function findRepeatedKey(text: string, value: unknown): RepeatedKey | undefined {
  // Every key of the text ends in `"` then `:`; strings may add more such pairs, never fewer.
  // So when the pairs are as many as the parsed keys, no key was given twice.
  const pairs = text.match(/"\s*:/g)?.length ?? 0;
  if (pairs <= keyCount(value)) return undefined;
  const open: Array<Set<string>> = [];
  let found: RepeatedKey | undefined;
  visit(text, {
    onObjectBegin: () => void open.push(new Set()),
    onObjectEnd: () => void open.pop(),
    onObjectProperty: (key, _offset, _length, line) => {
      const keys = open.at(-1)!;
      if (keys.has(key)) found ??= { key, line };
      keys.add(key);
    },
  });
  return found;
}

function keyCount(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + keyCount(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return Object.values(value).reduce((sum: number, item) => sum + keyCount(item), Object.keys(value).length);
}

/**
 * Watches stream-json tokens (with packed keys) for a key given twice in one object, for
 * documents too large to hold; `at(item)` names the array item it is in (1-based).
 */
export class RepeatedKeyWatch {
  readonly #open: Array<Set<string> | undefined> = [];
  #item = 0;

  /** How many objects and arrays are open around the current token. */
  get depth(): number {
    return this.#open.length;
  }

  /** Returns the repeated key, if this token gives one. */
  token(name: string, value: unknown): { key: string; item: number } | undefined {
    const depth = this.#open.length;
    // A value starting right inside the top-level array is the next item.
    if (depth === 1 && STARTS_VALUE.has(name)) this.#item++;
    if (name === 'startObject') this.#open.push(new Set());
    else if (name === 'startArray') this.#open.push(undefined);
    else if (name === 'endObject' || name === 'endArray') this.#open.pop();
    else if (name === 'keyValue') {
      const keys = this.#open.at(-1)!;
      const key = String(value);
      if (keys.has(key)) return { key, item: this.#item };
      keys.add(key);
    }
    return undefined;
  }
}

// Start tokens only: a streamed string or number is also packed into a second token after it.
const STARTS_VALUE = new Set(['startObject', 'startArray', 'startString', 'startNumber', 'nullValue', 'trueValue', 'falseValue']);
