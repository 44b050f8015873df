// List tools page by `limit` and `cursor` and answer `next_cursor` (null at the end). A cursor
// is the API's page token, or, for lists the API answers whole, the offset of the next item.
import * as z from 'zod';
import { UsageError } from '../base/errors.js';
import { MAX_PAGE_LIMIT } from '../schemas/limits.js';

export const DEFAULT_LIMIT = 25;

export const pagingInput = {
  limit: z.number().int().min(1).max(MAX_PAGE_LIMIT).optional().describe(`items per page (default ${DEFAULT_LIMIT})`),
  cursor: z.string().optional().describe('next_cursor of the previous page'),
};

export const listOutput = {
  items: z.array(z.record(z.string(), z.unknown())),
  next_cursor: z.string().nullable(),
};

/** A page of a list held whole: `cursor` is the offset it starts at. */
export function offsetPage<T>(all: readonly T[], limit = DEFAULT_LIMIT, cursor?: string): { items: T[]; next_cursor: string | null } {
  const start = cursor === undefined ? 0 : Number(cursor);
  if (!Number.isSafeInteger(start) || start < 0) throw new UsageError('cursor: not a cursor of this list (give next_cursor as it came)');
  const end = start + limit;
  return { items: all.slice(start, end), next_cursor: end < all.length ? String(end) : null };
}

export function pageSummary(noun: string, count: number, next: string | null): string {
  return `${count} ${noun}${next ? '; more with cursor ' + next : ''}`;
}
