// Typed client for the ads API (spec 4.1). Builds paths, never prints.
import type { HttpCore } from './http.js';
import type { RetryPolicy } from './retry.js';
import type { Page, PageQuery } from './paginate.js';
import type {
  Ad, AdAccount, AdGroup, BatchResult, Campaign, CreateAdGroupInput, CreateAdInput, CreateCampaignInput, Store,
  UpdateAdGroupInput, UpdateCampaignInput,
} from '../schemas/ads.js';

interface ListBody {
  next_page_token?: { value: string };
  [key: string]: unknown;
}

export interface BatchOptions {
  /** Reused on every retry of this batch so that it is never applied twice. */
  idempotencyKey?: string;
  signal?: AbortSignal;
  retry?: RetryPolicy;
}

const seg = encodeURIComponent;

export class AdsApi {
  constructor(private readonly http: HttpCore) {}

  async listAccounts(): Promise<AdAccount[]> {
    const res = await this.http.send<{ ad_accounts: AdAccount[] }>({ method: 'GET', path: '/v1/ads/ad-accounts' });
    return res.body.ad_accounts ?? [];
  }

  listStores(accountId: string, query: PageQuery): Promise<Page<Store>> {
    return this.#page(`/v1/ads/${seg(accountId)}/stores`, 'stores', query);
  }

  listCampaigns(accountId: string, query: PageQuery & { campaignIds?: string[] }): Promise<Page<Campaign>> {
    return this.#page(this.#campaigns(accountId), 'campaigns', query, { campaign_id: query.campaignIds });
  }

  createCampaigns(accountId: string, campaigns: CreateCampaignInput[], options: BatchOptions = {}): Promise<BatchResult[]> {
    return this.#batch('POST', this.#campaigns(accountId), { campaigns }, options);
  }

  patchCampaigns(accountId: string, campaigns: UpdateCampaignInput[], options: BatchOptions = {}): Promise<BatchResult[]> {
    return this.#batch('PATCH', this.#campaigns(accountId), { campaigns }, options);
  }

  listAdGroups(accountId: string, campaignId: string, query: PageQuery & { adGroupIds?: string[] }): Promise<Page<AdGroup>> {
    return this.#page(this.#adGroups(accountId, campaignId), 'ad_groups', query, { ad_group_id: query.adGroupIds });
  }

  createAdGroups(accountId: string, campaignId: string, adGroups: CreateAdGroupInput[], options: BatchOptions = {}): Promise<BatchResult[]> {
    return this.#batch('POST', this.#adGroups(accountId, campaignId), { ad_groups: adGroups }, options);
  }

  patchAdGroups(accountId: string, campaignId: string, adGroups: UpdateAdGroupInput[], options: BatchOptions = {}): Promise<BatchResult[]> {
    return this.#batch('PATCH', this.#adGroups(accountId, campaignId), { ad_groups: adGroups }, options);
  }

  listAds(accountId: string, campaignId: string, adGroupId: string, query: PageQuery & { adIds?: string[] }): Promise<Page<Ad>> {
    return this.#page(this.#ads(accountId, campaignId, adGroupId), 'ads', query, { ad_id: query.adIds });
  }

  createAds(accountId: string, campaignId: string, adGroupId: string, ads: CreateAdInput[], options: BatchOptions = {}): Promise<BatchResult[]> {
    return this.#batch('POST', this.#ads(accountId, campaignId, adGroupId), { ads }, options);
  }

  #campaigns(accountId: string): string {
    return `/v1/ads/${seg(accountId)}/campaigns`;
  }

  #adGroups(accountId: string, campaignId: string): string {
    return `${this.#campaigns(accountId)}/${seg(campaignId)}/ad-groups`;
  }

  #ads(accountId: string, campaignId: string, adGroupId: string): string {
    return `${this.#adGroups(accountId, campaignId)}/${seg(adGroupId)}/ads`;
  }

  async #page<T>(path: string, key: string, query: PageQuery, filters: Record<string, string[] | undefined> = {}): Promise<Page<T>> {
    const res = await this.http.send<ListBody>({
      method: 'GET',
      path,
      query: { page_token: query.pageToken, page_limit: query.pageLimit, ...filters },
    });
    return { items: (res.body[key] as T[] | undefined) ?? [], nextPageToken: res.body.next_page_token?.value || undefined };
  }

  async #batch(method: 'POST' | 'PATCH', path: string, json: unknown, options: BatchOptions): Promise<BatchResult[]> {
    const res = await this.http.send<{ results: BatchResult[] }>({ method, path, json, idempotencyKey: options.idempotencyKey, signal: options.signal, retry: options.retry });
    return res.body.results ?? [];
  }
}
