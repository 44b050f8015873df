// Typed client for the ads API (spec 4.1). Builds paths, never prints. The batch-writable
// resources are described once (ads-resources.ts) and listed, looked up and written here.
import { pathSegment } from '../http/path-segment.js';
import type { HttpCore } from '../http/core.js';
import type { AdsResource, AdsScope } from './ads-resources.js';
import type { RetryPolicy } from '../http/retry.js';
import type { Page, PageQuery } from './paginate.js';
import type { AdAccount, BatchResult, Store } from '../schemas/ads.js';

interface ListBody {
  next_page_token?: { value: string };
  [key: string]: unknown;
}

export interface BatchOptions {
  /** Reused on every retry of this batch so that it is never applied twice. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  retry?: RetryPolicy;
  /** Told when the answer is the one the server kept for this key (Idempotent-Replayed: true). */
  onReplayed?: () => void;
}

/** Look-ups by id in flight at once: the OpenAPI declares each id filter as one value, so it is one request per id. */
export const ID_LOOKUP_CONCURRENCY = 8;

export class AdsApi {
  constructor(private readonly http: HttpCore) {}

  async listAccounts(): Promise<AdAccount[]> {
    const res = await this.http.send<{ ad_accounts: AdAccount[] }>({ method: 'GET', path: '/v1/ads/ad-accounts' });
    return res.body.ad_accounts ?? [];
  }

  listStores(accountId: string, query: PageQuery): Promise<Page<Store>> {
    return this.#page(`/v1/ads/${pathSegment(accountId, 'account id')}/stores`, 'stores', query);
  }

  /** One page of campaigns, ad groups or ads of a scope (`retry`: a bulk run's longer policy). */
  list<T>(resource: AdsResource, scope: AdsScope, query: PageQuery, signal?: AbortSignal, retry?: RetryPolicy): Promise<Page<T>> {
    return this.#page(resource.path(scope, pathSegment), resource.wrapper, query, {}, signal, retry);
  }

  /** These resources in the order given (ids not found are left out): one request per id, a few at once. */
  async getByIds<T>(resource: AdsResource, scope: AdsScope, ids: readonly string[], signal?: AbortSignal, retry?: RetryPolicy): Promise<T[]> {
    const path = resource.path(scope, pathSegment);
    const found = new Array<T[]>(ids.length);
    let next = 0;
    const worker = async () => {
      while (next < ids.length) {
        const i = next++;
        const page = await this.#page<T>(path, resource.wrapper, {}, { [resource.idField]: ids[i]! }, signal, retry);
        found[i] = page.items;
      }
    };
    await Promise.all(Array.from({ length: Math.min(ID_LOOKUP_CONCURRENCY, ids.length) }, worker));
    return found.flat();
  }

  /** The current state of these resources, by id (ids not found are absent). */
  async findByIds(
    resource: AdsResource,
    scope: AdsScope,
    ids: readonly string[],
    signal?: AbortSignal,
    retry?: RetryPolicy,
  ): Promise<Map<string, Record<string, unknown>>> {
    const items = await this.getByIds<Record<string, unknown>>(resource, scope, ids, signal, retry);
    return new Map(items.map((item) => [String(item[resource.idField]), item]));
  }

  /** One batch write (create or update) of any batch-writable resource. */
  sendBatch(
    resource: AdsResource,
    scope: AdsScope,
    method: 'POST' | 'PATCH',
    items: ReadonlyArray<Record<string, unknown>>,
    options: BatchOptions = {},
  ): Promise<BatchResult[]> {
    return this.#batch(method, resource.path(scope, pathSegment), { [resource.wrapper]: items }, options);
  }

  async #page<T>(
    path: string,
    key: string,
    query: PageQuery,
    filters: Record<string, string> = {},
    signal?: AbortSignal,
    retry?: RetryPolicy,
  ): Promise<Page<T>> {
    const res = await this.http.send<ListBody>({
      method: 'GET',
      path,
      signal,
      retry,
      query: { page_token: query.pageToken, page_limit: query.pageLimit, ...filters },
    });
    return { items: (res.body[key] as T[] | undefined) ?? [], nextPageToken: res.body.next_page_token?.value || undefined };
  }

  async #batch(method: 'POST' | 'PATCH', path: string, json: unknown, options: BatchOptions): Promise<BatchResult[]> {
    const res = await this.http.send<{ results: BatchResult[] }>({
      method,
      path,
      json,
      idempotencyKey: options.idempotencyKey,
      signal: options.signal,
      retry: options.retry,
    });
    // (Stripe's header: the answer is the one kept for this key, from when it was first sent)
    if (res.headers['idempotent-replayed'] === 'true') options.onReplayed?.();
    return res.body.results ?? [];
  }
}
