// -f/-F fields of `platform api`: `key=value`, with a[b]=v nesting, a[]=v appending to a
// list and a[][b]=v building a list of objects, as `gh api` does. -F values are typed:
// numbers, true/false/null, @file. Commander gathers each flag's values apart, so all -f
// fields apply before all -F fields.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { readBytes } from '../input.js';

export type FieldValue = string | number | boolean | null;
export interface Field {
  /** e.g. ['a', 'b'] for a[b]; '' is a list (a[] appends, a[][b] sets b of an item). */
  path: string[];
  value: FieldValue;
}

function split(arg: string, flag: string): { key: string; raw: string } {
  const eq = arg.indexOf('=');
  if (eq <= 0) throw new UsageError(`${flag} ${JSON.stringify(arg)}: expected key=value`);
  return { key: arg.slice(0, eq), raw: arg.slice(eq + 1) };
}

function keyPath(key: string, flag: string): string[] {
  const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
  if (!match) throw new UsageError(`${flag}: ${JSON.stringify(key)} is not a field name (name, name[sub], name[], name[][sub])`);
  return [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1]!)];
}

async function typed(ctx: Context, raw: string): Promise<FieldValue> {
  if (raw.startsWith('@')) return (await readBytes(ctx, raw.slice(1), '-F')).toString('utf8');
  if (raw === 'true') return true;
  if (raw === 'false') return false;
  if (raw === 'null') return null;
  // Integers beyond the exact range stay strings (e.g. money as amount_e5).
  if (/^-?(0|[1-9]\d*)$/.test(raw)) return Number.isSafeInteger(Number(raw)) ? Number(raw) : raw;
  if (/^-?(0|[1-9]\d*)\.\d+$/.test(raw)) return Number(raw);
  return raw;
}

export async function parseFields(ctx: Context, raw: string[] = [], typedFields: string[] = []): Promise<Field[]> {
  const fields: Field[] = [];
  for (const arg of raw) {
    const { key, raw: value } = split(arg, '-f');
    fields.push({ path: keyPath(key, '-f'), value });
  }
  for (const arg of typedFields) {
    const { key, raw: value } = split(arg, '-F');
    fields.push({ path: keyPath(key, '-F'), value: await typed(ctx, value) });
  }
  return fields;
}

/** The JSON body the fields make. */
export function toBody(fields: Field[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const { path, value } of fields) assign(body, path, value, path[0]!);
  return body;
}

type Container = Record<string, unknown> | unknown[];
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether `path` already holds a value under `node` (a list always takes one more). */
function occupied(node: unknown, path: string[]): boolean {
  for (const key of path) {
    if (key === '' || !isObject(node) || !(key in node)) return false;
    node = node[key];
  }
  return true;
}

/**
 * Sets `value` at `path` under `container`. In a list (segment ''), a field goes into the
 * list's last object unless that object already has it, then into a new object, so
 * `-f items[][name]=a -f items[][id]=1 -f items[][name]=b` makes two items, as `gh api` does.
 */
function assign(container: Container, path: string[], value: FieldValue, name: string): void {
  const [segment, ...rest] = path as [string, ...string[]];
  if (Array.isArray(container)) {
    if (rest.length === 0) {
      container.push(value);
      return;
    }
    if (rest[0] === '') throw new UsageError(`field ${name}: lists of lists ([][]) are not supported; use --input`);
    const last = container[container.length - 1];
    if (isObject(last) && !occupied(last, rest)) return assign(last, rest, value, name);
    const item = {};
    container.push(item);
    return assign(item, rest, value, name);
  }
  if (rest.length === 0) {
    container[segment] = value;
    return;
  }
  const wantList = rest[0] === '';
  const child = (container[segment] ??= wantList ? [] : {});
  if (wantList ? !Array.isArray(child) : !isObject(child)) {
    throw new UsageError(`field ${name}: ${segment} is given both as ${wantList ? 'a list' : 'an object'} and as something else`);
  }
  assign(child as Container, rest, value, name);
}

/** Query parameters the fields make: key[]=v repeats the key; nesting has no query form. */
export function toQuery(fields: Field[]): Record<string, string[]> {
  const query: Record<string, string[]> = {};
  for (const { path, value } of fields) {
    if (path.length > 2 || (path.length === 2 && path[1] !== '')) {
      throw new UsageError(`field ${path[0]}[${path[1]}]: nested fields need a JSON body (use a method other than GET)`);
    }
    (query[path[0]!] ??= []).push(String(value));
  }
  return query;
}
