// In-memory data of the sandbox, its indexes, and persistence to a JSON file (--state).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Ad, AdAccount, AdGroup, Campaign, Store as StoreResource } from '../schemas/ads.js';
import { emptyOAuthData, type OAuthData } from './oauth-data.js';
import { DeliveryHistory, type HistoryData } from './reporting/history.js';

export type CampaignValue = Omit<Campaign, 'ad_groups'>;
export type AdGroupValue = AdGroup;

export interface AccountRecord {
  value: AdAccount;
  active: boolean;
}
export interface CampaignRecord {
  account: string;
  value: CampaignValue;
}
export interface AdGroupRecord {
  account: string;
  value: AdGroupValue;
}
export interface AdRecord {
  account: string;
  value: Ad;
}

export interface TokenRecord {
  token: string;
  client_id: string;
  scopes: string[];
  /** Milliseconds since the epoch. */
  expires_at: number;
  /** The user the token acts for (authorization-code grant); absent for client credentials. */
  user_id?: string;
  /** Tokens issued from one authorization code share it, so a replayed code revokes them all. */
  grant_id?: string;
}

export interface IdempotencyRecord {
  /** `${client_id}\n${key}` */
  key: string;
  fingerprint: string;
  status: number;
  body: unknown;
  expires_at: number;
}

/** Everything that is saved to and loaded from the state file. */
export interface StateData {
  version: 1;
  accounts: AccountRecord[];
  stores: Record<string, StoreResource[]>;
  campaigns: CampaignRecord[];
  adGroups: AdGroupRecord[];
  ads: AdRecord[];
  tokens: TokenRecord[];
  idempotency: IdempotencyRecord[];
  /** Optional: state files written before the authorization-code grant lack it. */
  oauth?: OAuthData;
  /** The rider API's state (rider/persistence.ts); optional for older files. */
  rider?: unknown;
  /** Past delivery states of changed resources (reporting/history.ts); optional for older files. */
  history?: HistoryData;
}

export class DataStore {
  accounts: AccountRecord[] = [];
  readonly stores = new Map<string, StoreResource[]>();
  readonly tokens = new Map<string, TokenRecord>();
  readonly idempotency = new Map<string, IdempotencyRecord>();
  oauth: OAuthData = emptyOAuthData();
  /** What past days delivered under, so writes today leave past reports as they were. */
  history = new DeliveryHistory();
  /** The rider state as loaded; the rider API replaces it with a live snapshot function. */
  rider: unknown;
  riderSnapshot: (() => unknown) | undefined;
  private readonly campaignsById = new Map<string, CampaignRecord>();
  private readonly campaignsByAccount = new Map<string, CampaignRecord[]>();
  private readonly adGroupsById = new Map<string, AdGroupRecord>();
  private readonly adGroupsByCampaign = new Map<string, AdGroupRecord[]>();
  private readonly adsById = new Map<string, AdRecord>();
  private readonly adsByAdGroup = new Map<string, AdRecord[]>();
  /** Creation order over all accounts, for saving. */
  private campaignOrder: CampaignRecord[] = [];
  private adGroupOrder: AdGroupRecord[] = [];
  private adOrder: AdRecord[] = [];

  constructor(data: StateData) {
    this.load(data);
  }

  /**
   * Replaces everything with `data` (taken over, not copied), in place: handlers that hold
   * this store see the new state (snapshot restore, reset). The rider's part is the rider
   * API's to load (see `rider`).
   */
  load(data: StateData): void {
    for (const map of [
      this.stores,
      this.tokens,
      this.idempotency,
      this.campaignsById,
      this.campaignsByAccount,
      this.adGroupsById,
      this.adGroupsByCampaign,
      this.adsById,
      this.adsByAdGroup,
    ])
      map.clear();
    this.campaignOrder = [];
    this.adGroupOrder = [];
    this.adOrder = [];
    this.accounts = data.accounts;
    for (const [account, stores] of Object.entries(data.stores)) this.stores.set(account, stores);
    for (const c of data.campaigns) this.addCampaign(c);
    for (const g of data.adGroups) this.addAdGroup(g);
    for (const a of data.ads) this.addAd(a);
    for (const t of data.tokens) this.tokens.set(t.token, t);
    for (const i of data.idempotency) this.idempotency.set(i.key, i);
    this.oauth = data.oauth ?? emptyOAuthData();
    this.history = new DeliveryHistory(data.history);
    this.rider = data.rider;
  }

  account(id: string, activeOnly = true): AccountRecord | undefined {
    return this.accounts.find((a) => a.value.ad_account_id === id && (a.active || !activeOnly));
  }

  accountStores(accountId: string): StoreResource[] {
    return this.stores.get(accountId) ?? [];
  }

  campaigns(accountId: string): CampaignRecord[] {
    return this.campaignsByAccount.get(accountId) ?? [];
  }

  campaign(accountId: string, campaignId: string): CampaignRecord | undefined {
    const rec = this.campaignsById.get(campaignId);
    return rec && rec.account === accountId ? rec : undefined;
  }

  adGroups(campaignId: string): AdGroupRecord[] {
    return this.adGroupsByCampaign.get(campaignId) ?? [];
  }

  adGroup(campaignId: string, adGroupId: string): AdGroupRecord | undefined {
    const rec = this.adGroupsById.get(adGroupId);
    return rec && rec.value.campaign_id === campaignId ? rec : undefined;
  }

  ads(adGroupId: string): AdRecord[] {
    return this.adsByAdGroup.get(adGroupId) ?? [];
  }

  addCampaign(rec: CampaignRecord): void {
    this.campaignsById.set(rec.value.campaign_id, rec);
    pushTo(this.campaignsByAccount, rec.account, rec);
    this.campaignOrder.push(rec);
  }

  addAdGroup(rec: AdGroupRecord): void {
    this.adGroupsById.set(rec.value.ad_group_id, rec);
    pushTo(this.adGroupsByCampaign, rec.value.campaign_id, rec);
    this.adGroupOrder.push(rec);
  }

  addAd(rec: AdRecord): void {
    this.adsById.set(rec.value.ad_id, rec);
    pushTo(this.adsByAdGroup, rec.value.ad_group_id, rec);
    this.adOrder.push(rec);
  }

  toData(): StateData {
    return {
      version: 1,
      accounts: this.accounts,
      stores: Object.fromEntries(this.stores),
      campaigns: this.campaignOrder,
      adGroups: this.adGroupOrder,
      ads: this.adOrder,
      tokens: [...this.tokens.values()],
      idempotency: [...this.idempotency.values()],
      oauth: this.oauth,
      rider: this.riderSnapshot ? this.riderSnapshot() : this.rider,
      history: this.history.toData(),
    };
  }
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

export function loadState(path: string): StateData | undefined {
  if (!existsSync(path)) return undefined;
  const data = JSON.parse(readFileSync(path, 'utf8')) as StateData;
  if (data.version !== 1) throw new Error(`${path}: unsupported sandbox state version ${String(data.version)}`);
  return data;
}

/** Writes atomically: a temp file, flushed to disk, then renamed over the old one; a kill at any moment leaves the old file or the new one, whole. */
export function saveState(path: string, data: StateData): void {
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeFileSync(fd, JSON.stringify(data));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, path);
}

/** Saves at most once per `delayMs` after changes, and on flush. */
export class Persister {
  private timer: NodeJS.Timeout | undefined;
  private dirty = false;

  constructor(
    private readonly path: string | undefined,
    private readonly store: DataStore,
    private readonly delayMs = 250,
  ) {}

  changed(): void {
    if (!this.path) return;
    this.dirty = true;
    if (this.timer) return;
    this.timer = setTimeout(() => {
      try {
        this.flush();
      } catch {
        this.dirty = true; // retried on the next change or on close
      }
    }, this.delayMs);
    this.timer.unref();
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.path || !this.dirty) return;
    this.dirty = false;
    saveState(this.path, this.store.toData());
  }
}
