// Limits on what --from-csv and --from-json read, enforced while streaming so that a huge or
// hostile input is refused after reading about one limit's worth of it, in bounded memory,
// instead of being held whole (a 2 GB line used to take V8 down). Zod-free: the bulk
// readers and messages use them without loading the schema library.

/** Longest CSV record, NDJSON line or JSON item, in bytes (a real row is under 10 KiB). */
export const MAX_RECORD_BYTES = 1 << 20;
/** Deepest nesting of a JSON value (an item nests about 6 levels); deeper would exhaust the stack of what reads it. */
export const MAX_JSON_DEPTH = 64;
/** Longest value quoted whole in a message; longer ones are cut and their length given. */
export const MAX_SHOWN_CHARS = 80;

/** `1 MiB` for messages. */
export function formatBytes(bytes: number): string {
  return bytes % (1 << 20) === 0 ? `${bytes / (1 << 20)} MiB` : `${bytes} bytes`;
}

/** A value quoted for a message: `"abc"`, or `"abc…" (104857600 characters)` when long. */
export function shown(value: string): string {
  if (value.length <= MAX_SHOWN_CHARS) return JSON.stringify(value);
  // Cut at a code point, not inside a surrogate pair.
  const cut = Array.from(value.slice(0, MAX_SHOWN_CHARS)).slice(0, -1).join('');
  return `${JSON.stringify(`${cut}…`)} (${value.length} characters)`;
}

/** A key or path as it is (unquoted), unless it is long: then as `shown` gives it. */
export function shownName(name: string): string {
  return name.length <= MAX_SHOWN_CHARS ? name : shown(name);
}

/**
 * Where the nesting of JSON text first goes deeper than MAX_JSON_DEPTH, as a 0-based
 * offset, or -1. One pass over the characters, brackets in strings skipped.
 */
export function tooDeepAt(text: string, maxDepth = MAX_JSON_DEPTH): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}
