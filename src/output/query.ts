// --query: a JMESPath expression (aws CLI's convention) applied to the whole output, after
// every page is merged (aws applies it per page). Its result is printed in the chosen format:
// JSON as it is, NDJSON one element a line, CSV and tables with a column per key.
import type { View } from './columns.js';

/** Compiles the expression, or says why it is not one (checked before anything is sent). */
export async function queryProblem(expression: string): Promise<string | undefined> {
  const { compile } = await import('@jmespath-community/jmespath');
  try {
    compile(expression);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

export async function runQuery(expression: string, value: unknown): Promise<unknown> {
  const { search } = await import('@jmespath-community/jmespath');
  return search(value as Parameters<typeof search>[0], expression);
}

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
    columns: keys.map((key) => ({ header: key.toUpperCase(), name: key, csv: (row: unknown) => cell((row as Record<string, unknown> | null)?.[key]) })),
  };
}

/** The rows a query result stands for: its elements, or the one value. */
export function resultRows(result: unknown): unknown[] {
  return Array.isArray(result) ? result : result === null || result === undefined ? [] : [result];
}
