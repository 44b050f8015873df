// --query: a JMESPath expression (aws CLI's convention) applied to the whole output. A list
// given --query reads every page first (as if --all; aws also pages before it queries), so
// the answer never comes from one page. Its result is printed in the chosen format: JSON as
// it is, NDJSON one element a line, CSV and tables with a column per key, text raw.
import type { View } from './columns.js';
import { UsageError } from '../base/errors.js';
import { MAX_QUERY_DEPTH, MAX_QUERY_LENGTH } from './query-limits.js';

/** Compiles the expression, or says why it cannot be used (checked before anything is sent). */
export async function queryProblem(expression: string): Promise<string | undefined> {
  if (expression.length > MAX_QUERY_LENGTH) {
    return `the expression is ${expression.length.toLocaleString('en-US')} characters long; at most ${MAX_QUERY_LENGTH.toLocaleString('en-US')} are taken`;
  }
  const { compile } = await import('@jmespath-community/jmespath');
  let tree: unknown;
  try {
    tree = compile(expression);
  } catch (error) {
    // The library's parser recurses; very deep nesting overflows the stack before our depth check.
    if (error instanceof RangeError) return tooDeep();
    return `not a JMESPath expression: ${error instanceof Error ? error.message : String(error)}`;
  }
  return treeDepth(tree) > MAX_QUERY_DEPTH ? tooDeep() : undefined;
}

const tooDeep = () => `the expression is nested more than ${MAX_QUERY_DEPTH} levels deep`;

/** Levels of a syntax tree, counted without recursion (the tree may be deep). */
function treeDepth(tree: unknown): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[tree, 1]];
  while (stack.length) {
    const [node, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    for (const child of Object.values(node as object)) {
      if (Array.isArray(child)) {
        for (const item of child) if (item && typeof item === 'object') stack.push([item, depth + 1]);
      } else if (child && typeof child === 'object') {
        stack.push([child, depth + 1]);
      }
    }
  }
  return deepest;
}

export async function runQuery(expression: string, value: unknown): Promise<unknown> {
  const { search } = await import('@jmespath-community/jmespath');
  try {
    return search(value as Parameters<typeof search>[0], expression);
  } catch (error) {
    if (error instanceof RangeError) throw new UsageError(`--query: ${tooDeep()}, or the data it reads is, to evaluate`);
    throw error;
  }
}

const isIdKey = (key: string) => key === 'id' || key.endsWith('_id');

/** A view for whatever the expression returned: a column per key of its objects, or one `value` column. */
export function resultView(rows: readonly unknown[]): View<unknown> {
  const keys: string[] = [];
  for (const row of rows) {
    if (row && typeof row === 'object' && !Array.isArray(row)) for (const key of Object.keys(row)) if (!keys.includes(key)) keys.push(key);
  }
  const cell = (value: unknown) => (value === undefined || value === null ? '' : typeof value === 'string' ? value : JSON.stringify(value));
  if (keys.length === 0) return { noun: 'results', columns: [{ header: 'VALUE', name: 'value', csv: (row) => cell(row) }] };
  return {
    noun: 'results',
    columns: keys.map((key) => ({
      header: key.toUpperCase(),
      name: key,
      csv: (row: unknown) => cell((row as Record<string, unknown> | null)?.[key]),
      ...(isIdKey(key) ? { kind: 'id' as const } : {}),
    })),
  };
}

/** The rows a query result stands for: its elements, or the one value. */
export function resultRows(result: unknown): unknown[] {
  return Array.isArray(result) ? result : result === null || result === undefined ? [] : [result];
}
