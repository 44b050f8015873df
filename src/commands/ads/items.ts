// The items a create/patch sends: from --from-json, or one item built from flags.
import type { z } from 'zod';
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { parseJsonItems, readInput, validateItems } from '../../bulk/json-items.js';
import { MAX_BATCH_ITEMS } from '../../schemas/ads.js';
import { validateFlags } from './flags.js';

export interface ItemSource<T extends z.ZodType> {
  fromJson?: string;
  /** The API body's array key, e.g. "campaigns". */
  wrapper: string;
  schema: T;
  /** Field flags given on the command line (they conflict with --from-json). */
  fieldFlags: string[];
  /** Builds the single item from flags (throws UsageError naming a flag). */
  fromFlags: () => Record<string, unknown>;
  batchSize?: number;
}

export async function collectItems<T extends z.ZodType>(ctx: Context, source: ItemSource<T>): Promise<{ items: Array<z.infer<T>>; positions: number[] }> {
  if (source.batchSize !== undefined && (source.batchSize < 1 || source.batchSize > MAX_BATCH_ITEMS)) {
    throw new UsageError(`--batch-size must be from 1 to ${MAX_BATCH_ITEMS}`);
  }
  if (source.fromJson !== undefined) {
    if (source.fieldFlags.length) throw new UsageError(`--from-json cannot be combined with ${source.fieldFlags.join(', ')}`);
    const items = parseJsonItems(await readInput(ctx, source.fromJson), source.wrapper);
    return { items: validateItems(items, source.schema, 'item'), positions: items.map((i) => i.position) };
  }
  return { items: [validateFlags(source.schema, source.fromFlags())], positions: [1] };
}

/** The flags (as --kebab-case) among `keys` that were given. */
export function givenFlags(flags: object, keys: string[]): string[] {
  const values = flags as Record<string, unknown>;
  return keys.filter((key) => values[key] !== undefined && values[key] !== false).map((key) => `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`);
}
