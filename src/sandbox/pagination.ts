// page_limit / page_token for ads lists. The token is base64url JSON {l: list hash, o: offset};
// lists are in creation order and only grow, so offsets never repeat an item.
import { createHash } from 'node:crypto';
import { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from '../schemas/limits.js';
import { adsError, type SandboxRequest } from './http.js';

export interface Page<T> {
  items: T[];
  next?: { value: string };
}

/** `list` names the list and its filter, so a token from another list is rejected. */
export function paginate<T>(req: SandboxRequest, list: string, items: readonly T[]): Page<T> {
  const limit = pageLimit(req);
  const hash = createHash('sha256').update(list).digest('base64url').slice(0, 12);
  const offset = pageOffset(req, hash, items.length);
  const end = Math.min(items.length, offset + limit);
  const page: Page<T> = { items: items.slice(offset, end) };
  if (end < items.length) page.next = { value: Buffer.from(JSON.stringify({ l: hash, o: end })).toString('base64url') };
  return page;
}

function pageLimit(req: SandboxRequest): number {
  const raw = singleQuery(req, 'page_limit') ?? null;
  if (raw === null) return DEFAULT_PAGE_LIMIT;
  const n = /^\d+$/.test(raw.trim()) ? Number(raw.trim()) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_PAGE_LIMIT) {
    throw adsError(400, 'BadRequest', `page_limit must be an integer from 1 to ${MAX_PAGE_LIMIT}`);
  }
  return n;
}

function pageOffset(req: SandboxRequest, hash: string, length: number): number {
  const raw = singleQuery(req, 'page_token') ?? null;
  if (raw === null || raw === '') return 0;
  let token: { l?: unknown; o?: unknown };
  try {
    token = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as typeof token;
  } catch {
    throw adsError(400, 'BadRequest', 'page_token is not a valid page token');
  }
  if (typeof token !== 'object' || token === null || typeof token.o !== 'number' || !Number.isInteger(token.o) || token.o < 0 || token.o > length) {
    throw adsError(400, 'BadRequest', 'page_token is not a valid page token');
  }
  if (token.l !== hash) throw adsError(400, 'BadRequest', 'page_token belongs to a different list or filter');
  return token.o;
}

/**
 * The one value of an id filter: the OpenAPI declares each as a single string, so a
 * repeated parameter (?campaign_id=a&campaign_id=b) is refused, naming it.
 */
export function idFilter(req: SandboxRequest, name: string): string[] | undefined {
  const value = singleQuery(req, name);
  return value === undefined || value === '' ? undefined : [value];
}

/** A single-valued query parameter; 400 naming it when it is given more than once. */
export function singleQuery(req: SandboxRequest, name: string): string | undefined {
  const values = req.query.getAll(name);
  if (values.length > 1) throw adsError(400, 'BadRequest', `query parameter ${name} was given ${values.length} times; it takes one value`);
  return values[0];
}
