// --json FIELD,FIELD (gh's flag): each item with only the fields named, in the order named.
// Commands whose items have a schema check the names before anything is sent (item-fields.ts);
// for the others the first item says which fields there are.
import { UsageError } from '../base/errors.js';

type Item = Record<string, unknown>;

/** The item with only `fields` (a field it lacks is left out, as the API leaves out an unset one). */
export function pick(item: unknown, fields: readonly string[]): unknown {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return item;
  const out: Item = {};
  for (const field of fields) if (field in item) out[field] = (item as Item)[field];
  return out;
}

/** Refuses a field the item does not have, naming the fields it has. */
export function checkPicked(item: unknown, fields: readonly string[], noun: string): void {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) return;
  const missing = fields.find((field) => !(field in item));
  if (missing !== undefined) throw new UsageError(`--json: \`${missing}\` is not a field of ${noun}; their fields: ${Object.keys(item).join(', ')}`);
}

/** The rows picked; `check`: the first row is checked first (nothing is written before it). */
export async function* pickRows<T>(rows: AsyncIterable<T> | Iterable<T>, fields: readonly string[], check: { noun: string } | undefined): AsyncGenerator<T> {
  let first = true;
  for await (const row of rows) {
    if (first && check) checkPicked(row, fields, check.noun);
    first = false;
    yield pick(row, fields) as T;
  }
}
