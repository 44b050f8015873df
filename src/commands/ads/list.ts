// Shared by every `ads ... list`: paging flags, --status, the field names of --query and
// --json FIELDS (checked before anything is sent), streaming rows to the output layer.
import type { Context } from '../../context.js';
import { UsageError } from '../../base/errors.js';
import { walkPages, type Page, type PageQuery } from '../../api/paginate.js';
import { MAX_PAGE_LIMIT } from '../../schemas/limits.js';
import type { View } from '../../output/columns.js';
import type { ItemsName } from '../../output/item-fields.js';
import { withoutFields, writeRows } from '../../output/rows.js';
import type { OutputTarget } from '../../base/io.js';
import type { PagingFlags } from './spec.js';
import { AD_GROUPS, type AdsResource, type AdsScope } from '../../api/ads-resources.js';

export function checkPaging(flags: PagingFlags): void {
  if (flags.limit !== undefined && flags.limit < 1) throw new UsageError('--limit must be at least 1');
  if (flags.pageLimit !== undefined && (flags.pageLimit < 1 || flags.pageLimit > MAX_PAGE_LIMIT)) {
    throw new UsageError(`--page-limit must be from 1 to ${MAX_PAGE_LIMIT}`);
  }
  if (flags.all && flags.limit !== undefined) throw new UsageError('--all and --limit cannot be used together');
}

/** How a list's rows are written: --json FIELDS picked here, once checked against the items' schema. */
interface Output {
  target: OutputTarget;
  rows<T>(rows: AsyncIterable<T> | Iterable<T>): AsyncIterable<T> | Iterable<T>;
}

/**
 * Refuses (exit 2, nothing sent) a --query or --json FIELD naming a field the items do not
 * have: `[?status=='active']` would otherwise match nothing and exit 0 (item-fields.ts).
 */
async function checkedOutput(ctx: Context, items: ItemsName | undefined): Promise<Output> {
  const { fields } = ctx.globals;
  if (!items || (ctx.globals.query === undefined && !fields?.length)) return { target: ctx, rows: (rows) => rows };
  const { checkItemFields } = await import('../../output/item-fields.js');
  await checkItemFields(ctx.globals, items);
  if (!fields?.length) return { target: ctx, rows: (rows) => rows };
  const { pickRows } = await import('../../output/pick-fields.js');
  return { target: withoutFields(ctx), rows: (rows) => pickRows(rows, fields, undefined) };
}

export interface ListOptions<T> {
  /** The items' schema, for --query and --json FIELDS (item-fields.ts). */
  items?: ItemsName;
  /** Only these items (--status): filtered while paging. */
  keep?: (item: T) => boolean;
}

export async function listPages<T>(
  ctx: Context,
  view: View<T>,
  flags: PagingFlags,
  fetchPage: (query: PageQuery) => Promise<Page<T>>,
  options: ListOptions<T> = {},
  checked?: Output,
): Promise<void> {
  checkPaging(flags);
  const output = checked ?? (await checkedOutput(ctx, options.items));
  // --query answers about the whole list, never about its first page: it reads every page
  // (as aws CLI does before it queries), or the first --limit items.
  const all = Boolean(flags.all) || (ctx.globals.query !== undefined && flags.limit === undefined);
  let next: string | undefined;
  const rows = walkPages(fetchPage, { all, limit: flags.limit, pageToken: flags.pageToken, pageLimit: flags.pageLimit, keep: options.keep }, (token) => {
    next = token;
  });
  await writeRows(output.target, view, output.rows(rows));
  if (next && !all) ctx.info(`More ${view.noun}: add --all, or --page-token ${next}`);
}

type StatusFlag = { status?: 'active' | 'paused' };

/** `configured_status` ends with the status asked for (CAMPAIGN_CONFIGURED_STATUS_PAUSED is `paused`). */
const hasStatus = (status: string) => (item: unknown) => {
  const configured = (item as { configured_status?: unknown }).configured_status;
  return typeof configured === 'string' && configured.endsWith(`_STATUS_${status.toUpperCase()}`);
};

/** `--id a,b`: each id fetched on its own (the API takes one id per filter), rows in the order given (paging flags have nothing to page); else the pages. */
export async function listResources<T>(ctx: Context, view: View<T>, flags: PagingFlags & StatusFlag, resource: AdsResource, scope: AdsScope): Promise<void> {
  checkPaging(flags);
  const output = await checkedOutput(ctx, resource.wrapper);
  const client = await ctx.client();
  let keep = flags.status === undefined ? undefined : hasStatus(flags.status);
  if (keep && resource.wrapper === 'ads') {
    // An ad has no status: its ad group's stands for all of its ads (one more request).
    const [group] = await client.ads.getByIds<unknown>(AD_GROUPS, scope, [scope.adGroup ?? '']);
    if (group === undefined) throw new UsageError(`--ad-group: ad group ${scope.adGroup ?? ''} not found in campaign ${scope.campaign ?? ''}`);
    if (!keep(group)) {
      ctx.info(`Ad group ${scope.adGroup ?? ''} is not ${flags.status}, so none of its ads are`);
      await writeRows(output.target, view, []);
      return;
    }
    keep = undefined;
  }
  if (flags.id?.length) {
    const found = await client.ads.getByIds<T>(resource, scope, flags.id);
    const rows = keep ? found.filter(keep) : found;
    await writeRows(output.target, view, output.rows(flags.limit === undefined ? rows : rows.slice(0, flags.limit)));
    return;
  }
  await listPages(ctx, view, flags, (query) => client.ads.list<T>(resource, scope, query), { keep }, output);
}
