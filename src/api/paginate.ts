// Page-token pagination (spec 2.1) as a stream: one page in memory at a time.
import { CommandError } from '../base/errors.js';
import { MAX_PAGE_LIMIT } from '../schemas/limits.js';

/** Empty pages in a row that still carry a next token before the walk is called runaway. */
export const MAX_EMPTY_PAGES = 10;

export interface PageQuery {
  pageToken?: string;
  pageLimit?: number;
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

export interface WalkOptions<T = unknown> {
  /** Follow next_page_token to the end. */
  all: boolean;
  /** Stop after this many items. */
  limit?: number;
  /** Start from this page token. */
  pageToken?: string;
  /** Explicit page size; --all defaults to the largest page. */
  pageLimit?: number;
  /**
   * Only items it keeps are yielded and counted toward `limit` (a filter the API lacks, such
   * as --status): pages are then asked for whole, as most of one may be left out.
   */
  keep?: (item: T) => boolean;
}

/** Yields items page by page; `onPage` sees each page's next token (for "resume with --page-token"). */
export async function* walkPages<T>(
  fetchPage: (query: PageQuery) => Promise<Page<T>>,
  options: WalkOptions<T>,
  onPage?: (nextPageToken: string | undefined) => void,
): AsyncGenerator<T> {
  let pageToken = options.pageToken;
  let remaining = options.limit ?? Infinity;
  const pageLimit = options.pageLimit ?? (options.all ? MAX_PAGE_LIMIT : undefined);
  // A server that repeats a token, or answers empty pages with a token forever, would make
  // --all loop without end: every token is remembered, and empty pages are counted.
  const seen = new Set<string>(pageToken ? [pageToken] : []);
  let emptyPages = 0;
  for (;;) {
    // With --limit, ask for no more than is still wanted.
    const size = remaining === Infinity || options.keep ? pageLimit : Math.min(pageLimit ?? MAX_PAGE_LIMIT, remaining);
    const page = await fetchPage({ pageToken, pageLimit: size });
    onPage?.(page.nextPageToken);
    for (const item of page.items) {
      if (remaining <= 0) return;
      if (options.keep && !options.keep(item)) continue;
      remaining--;
      yield item;
    }
    if (!page.nextPageToken || remaining <= 0) return;
    if (!options.all && options.limit === undefined) return;
    if (seen.has(page.nextPageToken))
      throw new CommandError(
        `the server sent page token ${JSON.stringify(clip(page.nextPageToken))} a second time; stopped after ${seen.size} pages rather than loop`,
      );
    emptyPages = page.items.length === 0 ? emptyPages + 1 : 0;
    if (emptyPages >= MAX_EMPTY_PAGES)
      throw new CommandError(`the server sent ${emptyPages} empty pages in a row, each with a next page token; stopped rather than loop`);
    seen.add(page.nextPageToken);
    pageToken = page.nextPageToken;
  }
}

const clip = (token: string) => (token.length > 40 ? `${token.slice(0, 40)}...` : token);
