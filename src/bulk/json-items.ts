// --from-json input: a JSON array, an API body ({"campaigns": [...]}), or NDJSON.
import fs from 'node:fs';
import { text } from 'node:stream/consumers';
import type { z } from 'zod';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { describeZodError } from '../schemas/issues.js';

export interface JsonItem {
  /** 1-based: the array index, or the line of an NDJSON file. */
  position: number;
  value: unknown;
}

export async function readInput(ctx: Context, file: string): Promise<string> {
  if (file === '-') return text(ctx.io.stdin);
  try {
    return await fs.promises.readFile(file, 'utf8');
  } catch (error) {
    throw new UsageError(`--from-json: cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
}

/** Parses the items of a JSON document or NDJSON text; `wrapper` is the API body's array key. */
export function parseJsonItems(source: string, wrapper: string, label = '--from-json'): JsonItem[] {
  const trimmed = source.replace(/^\uFEFF/, '').trim();
  if (trimmed === '') throw new UsageError(`${label}: the input is empty`);
  if (trimmed.startsWith('[') || (trimmed.startsWith('{') && !trimmed.includes('\n'))) {
    const document = parseJson(trimmed, label);
    const items = Array.isArray(document) ? document : wrapperItems(document, wrapper);
    return items === undefined ? [{ position: 1, value: document }] : items.map((value, i) => ({ position: i + 1, value }));
  }
  if (trimmed.startsWith('{')) {
    // A pretty-printed single document, or NDJSON: try the document first.
    try {
      const document = JSON.parse(trimmed) as unknown;
      const items = wrapperItems(document, wrapper);
      return items === undefined ? [{ position: 1, value: document }] : items.map((value, i) => ({ position: i + 1, value }));
    } catch {
      // fall through to NDJSON
    }
  }
  const items: JsonItem[] = [];
  source.replace(/^\uFEFF/, '').split(/\r?\n/).forEach((line, index) => {
    if (line.trim() === '') return;
    items.push({ position: index + 1, value: parseJson(line, `${label} line ${index + 1}`) });
  });
  return items;
}

function wrapperItems(document: unknown, wrapper: string): unknown[] | undefined {
  if (document && typeof document === 'object' && !Array.isArray(document)) {
    const items = (document as Record<string, unknown>)[wrapper];
    if (Array.isArray(items)) return items;
  }
  return undefined;
}

function parseJson(source: string, label: string): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    throw new UsageError(`${label}: not valid JSON (${(error as Error).message})`);
  }
}

/** Validates every item; the first invalid one is a UsageError naming its position and field. */
export function validateItems<T extends z.ZodType>(items: JsonItem[], schema: T, noun: string): Array<z.infer<T>> {
  return items.map((item) => {
    const result = schema.safeParse(item.value);
    if (!result.success) throw new UsageError(`${noun} ${item.position}: ${describeZodError(result.error)}`);
    return result.data;
  });
}
