// Shared by every `ads ... list`: paging flags, streaming rows to the output layer.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { walkPages, type Page, type PageQuery } from '../../api/paginate.js';
import { MAX_PAGE_LIMIT } from '../../schemas/limits.js';
import type { View } from '../../output/columns.js';
import { writeRows } from '../../output/rows.js';
import type { PagingFlags } from './spec.js';
import type { AdsResource, AdsScope } from '../../api/ads-resources.js';

export function checkPaging(flags: PagingFlags): void {
  if (flags.limit !== undefined && flags.limit < 1) throw new UsageError('--limit must be at least 1');
  if (flags.pageLimit !== undefined && (flags.pageLimit < 1 || flags.pageLimit > MAX_PAGE_LIMIT)) {
    throw new UsageError(`--page-limit must be from 1 to ${MAX_PAGE_LIMIT}`);
  }
  if (flags.all && flags.limit !== undefined) throw new UsageError('--all and --limit cannot be used together');
}

export async function listPages<T>(ctx: Context, view: View<T>, flags: PagingFlags, fetchPage: (query: PageQuery) => Promise<Page<T>>): Promise<void> {
  checkPaging(flags);
  // --query answers about the whole list, never about its first page: it reads every page
  // (as aws CLI does before it queries), or the first --limit items.
  const all = Boolean(flags.all) || (ctx.globals.query !== undefined && flags.limit === undefined);
  let next: string | undefined;
  const rows = walkPages(fetchPage, { all, limit: flags.limit, pageToken: flags.pageToken, pageLimit: flags.pageLimit }, (token) => {
    next = token;
  });
  await writeRows(ctx, view, rows);
  if (next && !all) ctx.info(`More ${view.noun}: add --all, or --page-token ${next}`);
}

/** `--id a,b`: each id fetched on its own (the API takes one id per filter), rows in the order given (paging flags have nothing to page); else the pages. */
export async function listResources<T>(ctx: Context, view: View<T>, flags: PagingFlags, resource: AdsResource, scope: AdsScope): Promise<void> {
  const client = await ctx.client();
  if (flags.id?.length) {
    const rows = await client.ads.getByIds<T>(resource, scope, flags.id);
    await writeRows(ctx, view, flags.limit === undefined ? rows : rows.slice(0, flags.limit));
    return;
  }
  await listPages(ctx, view, flags, (query) => client.ads.list<T>(resource, scope, query));
}
