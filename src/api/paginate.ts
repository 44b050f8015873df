// Page-token pagination (spec 2.1) as a stream: one page in memory at a time.
import { MAX_PAGE_LIMIT } from '../schemas/limits.js';

export interface PageQuery {
  pageToken?: string;
  pageLimit?: number;
}

export interface Page<T> {
  items: T[];
  nextPageToken?: string;
}

export interface WalkOptions {
  /** Follow next_page_token to the end. */
  all: boolean;
  /** Stop after this many items. */
  limit?: number;
  /** Start from this page token. */
  pageToken?: string;
  /** Explicit page size; --all defaults to the largest page. */
  pageLimit?: number;
}

/** Yields items page by page; `onPage` sees each page's next token (for "resume with --page-token"). */
export async function* walkPages<T>(
  fetchPage: (query: PageQuery) => Promise<Page<T>>,
  options: WalkOptions,
  onPage?: (nextPageToken: string | undefined) => void,
): AsyncGenerator<T> {
  let pageToken = options.pageToken;
  let remaining = options.limit ?? Infinity;
  const pageLimit = options.pageLimit ?? (options.all ? MAX_PAGE_LIMIT : undefined);
  for (;;) {
    // With --limit, ask for no more than is still wanted.
    const size = remaining === Infinity ? pageLimit : Math.min(pageLimit ?? MAX_PAGE_LIMIT, remaining);
    const page = await fetchPage({ pageToken, pageLimit: size });
    onPage?.(page.nextPageToken);
    for (const item of page.items) {
      if (remaining <= 0) return;
      remaining--;
      yield item;
    }
    if (!page.nextPageToken || remaining <= 0) return;
    if (!options.all && options.limit === undefined) return;
    pageToken = page.nextPageToken;
  }
}
