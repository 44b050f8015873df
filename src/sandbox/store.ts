// In-memory data of the sandbox, its indexes, snapshots of it (freeze, thaw), and persistence
// to a JSON file (--state).
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Ad, AdAccount, AdGroup, Campaign, Store as StoreResource } from '../schemas/ads.js';
import { CowMap, Generation } from './cow.js';
import { IdSequence, type IdSequenceData } from './id-sequence.js';
import { emptyOAuthData, type OAuthData } from './oauth-data.js';
import { DeliveryHistory, type AdGroupDelivery, type CampaignDelivery, type HistoryData, type Timeline } from './reporting/history.js';

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
  /** `${scope}\n${key}`: the scope is `account <id>` (ads writes) or `client <id>` (idempotency.ts). */
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
  /** The state's id sequence (id-sequence.ts); absent in files saved before ids were numbered. */
  ids?: IdSequenceData;
}

/**
 * The whole state at one moment, for a snapshot: references to the store's containers, which
 * later writes copy instead of changing (cow.ts), so taking and restoring one costs the same at
 * any size. Only the small parts that are changed in place elsewhere (oauth) are copied.
 */
export interface FrozenState {
  readonly accounts: AccountRecord[];
  readonly stores: ReadonlyMap<string, StoreResource[]>;
  readonly campaigns: ReadonlyMap<string, CampaignRecord>;
  readonly campaignsByAccount: ReadonlyMap<string, CampaignRecord[]>;
  readonly adGroups: ReadonlyMap<string, AdGroupRecord>;
  readonly adGroupsByCampaign: ReadonlyMap<string, AdGroupRecord[]>;
  readonly ads: ReadonlyMap<string, AdRecord>;
  readonly adsByAdGroup: ReadonlyMap<string, AdRecord[]>;
  readonly tokens: ReadonlyMap<string, TokenRecord>;
  readonly idempotency: ReadonlyMap<string, IdempotencyRecord>;
  readonly oauth: OAuthData;
  readonly history: { campaigns: ReadonlyMap<string, Timeline<CampaignDelivery>>; adGroups: ReadonlyMap<string, Timeline<AdGroupDelivery>> };
  readonly rider: unknown;
  readonly ids: IdSequenceData;
}

export class DataStore {
  readonly #generation = new Generation();
  accounts: AccountRecord[] = [];
  #stores = new Map<string, StoreResource[]>();
  readonly tokens = new CowMap<string, TokenRecord>(this.#generation);
  readonly idempotency = new CowMap<string, IdempotencyRecord>(this.#generation);
  oauth: OAuthData = emptyOAuthData();
  readonly #historyMaps = {
    campaigns: new CowMap<string, Timeline<CampaignDelivery>>(this.#generation),
    adGroups: new CowMap<string, Timeline<AdGroupDelivery>>(this.#generation),
  };
  /** What past days delivered under, so writes today leave past reports as they were. */
  readonly history = new DeliveryHistory(this.#historyMaps);
  /** The rider state as loaded; the rider API replaces it with a live snapshot function. */
  rider: unknown;
  riderSnapshot: (() => unknown) | undefined;
  /** Ids of resources kept in the state (saved and restored with it). */
  readonly ids = IdSequence.unseeded();
  /** Ids of what the state does not keep (report jobs); restarted only by a reset. */
  readonly runIds = IdSequence.unseeded();
  // By id in creation order (a Map keeps insertion order, and replacing a value keeps its place).
  readonly #campaigns = new CowMap<string, CampaignRecord>(this.#generation);
  readonly #campaignsByAccount = new CowMap<string, CampaignRecord[]>(this.#generation);
  readonly #adGroups = new CowMap<string, AdGroupRecord>(this.#generation);
  readonly #adGroupsByCampaign = new CowMap<string, AdGroupRecord[]>(this.#generation);
  readonly #ads = new CowMap<string, AdRecord>(this.#generation);
  readonly #adsByAdGroup = new CowMap<string, AdRecord[]>(this.#generation);
  /** A record's index in its parent's list; a record never moves, and a replacement takes its index. */
  readonly #position = new WeakMap<object, number>();

  constructor(data: StateData) {
    this.load(data);
  }

  /**
   * Replaces everything with `data` (taken over, not copied; records are never changed in
   * place), in place: handlers that hold this store see the new state. The rider's part is
   * the rider API's to load (see `rider`).
   */
  load(data: StateData): void {
    for (const map of [
      this.tokens,
      this.idempotency,
      this.#campaigns,
      this.#campaignsByAccount,
      this.#adGroups,
      this.#adGroupsByCampaign,
      this.#ads,
      this.#adsByAdGroup,
    ])
      map.clear();
    this.#historyMaps.campaigns.clear();
    this.#historyMaps.adGroups.clear();
    this.accounts = data.accounts;
    this.#stores = new Map(Object.entries(data.stores));
    for (const c of data.campaigns) this.addCampaign(c);
    for (const g of data.adGroups) this.addAdGroup(g);
    for (const a of data.ads) this.addAd(a);
    for (const t of data.tokens) this.tokens.set(t.token, t);
    for (const i of data.idempotency) this.idempotency.set(i.key, i);
    this.oauth = data.oauth ?? emptyOAuthData();
    for (const [id, timeline] of Object.entries(data.history?.campaigns ?? {})) this.#historyMaps.campaigns.set(id, timeline);
    for (const [id, timeline] of Object.entries(data.history?.adGroups ?? {})) this.#historyMaps.adGroups.set(id, timeline);
    this.rider = data.rider;
    this.ids.load(data.ids ?? IdSequence.unseeded().toData());
  }

  /** The state as it is now; nothing written later reaches it (see FrozenState). */
  freeze(): FrozenState {
    const frozen: FrozenState = { ...this.#image(), oauth: structuredClone(this.oauth) };
    this.#generation.next();
    return frozen;
  }

  /**
   * Goes back to a frozen state, which stays as it was for the next restore: its containers
   * are owned by no generation (freeze started a new one right after taking them), so the
   * first write to each copies it. The rider API loads `rider`.
   */
  thaw(frozen: FrozenState): void {
    this.accounts = frozen.accounts;
    this.#stores = frozen.stores as Map<string, StoreResource[]>;
    this.#campaigns.adopt(frozen.campaigns);
    this.#campaignsByAccount.adopt(frozen.campaignsByAccount);
    this.#adGroups.adopt(frozen.adGroups);
    this.#adGroupsByCampaign.adopt(frozen.adGroupsByCampaign);
    this.#ads.adopt(frozen.ads);
    this.#adsByAdGroup.adopt(frozen.adsByAdGroup);
    this.tokens.adopt(frozen.tokens);
    this.idempotency.adopt(frozen.idempotency);
    this.oauth = structuredClone(frozen.oauth);
    this.#historyMaps.campaigns.adopt(frozen.history.campaigns);
    this.#historyMaps.adGroups.adopt(frozen.history.adGroups);
    this.rider = frozen.rider;
    this.ids.load(frozen.ids);
  }

  account(id: string, activeOnly = true): AccountRecord | undefined {
    return this.accounts.find((a) => a.value.ad_account_id === id && (a.active || !activeOnly));
  }

  accountStores(accountId: string): StoreResource[] {
    return this.#stores.get(accountId) ?? [];
  }

  campaigns(accountId: string): readonly CampaignRecord[] {
    return this.#campaignsByAccount.get(accountId) ?? [];
  }

  campaign(accountId: string, campaignId: string): CampaignRecord | undefined {
    const rec = this.#campaigns.get(campaignId);
    return rec && rec.account === accountId ? rec : undefined;
  }

  adGroups(campaignId: string): readonly AdGroupRecord[] {
    return this.#adGroupsByCampaign.get(campaignId) ?? [];
  }

  adGroup(campaignId: string, adGroupId: string): AdGroupRecord | undefined {
    const rec = this.#adGroups.get(adGroupId);
    return rec && rec.value.campaign_id === campaignId ? rec : undefined;
  }

  ads(adGroupId: string): readonly AdRecord[] {
    return this.#adsByAdGroup.get(adGroupId) ?? [];
  }

  addCampaign(rec: CampaignRecord): void {
    this.#campaigns.set(rec.value.campaign_id, rec);
    this.#append(this.#campaignsByAccount, rec.account, rec);
  }

  addAdGroup(rec: AdGroupRecord): void {
    this.#adGroups.set(rec.value.ad_group_id, rec);
    this.#append(this.#adGroupsByCampaign, rec.value.campaign_id, rec);
  }

  addAd(rec: AdRecord): void {
    this.#ads.set(rec.value.ad_id, rec);
    this.#append(this.#adsByAdGroup, rec.value.ad_group_id, rec);
  }

  /** Replaces a campaign's value (records are never changed in place: snapshots share them). */
  replaceCampaign(rec: CampaignRecord, value: CampaignValue): CampaignRecord {
    const next = { account: rec.account, value };
    this.#campaigns.set(value.campaign_id, next);
    this.#replace(this.#campaignsByAccount, rec.account, rec, next);
    return next;
  }

  replaceAdGroup(rec: AdGroupRecord, value: AdGroupValue): AdGroupRecord {
    const next = { account: rec.account, value };
    this.#adGroups.set(value.ad_group_id, next);
    this.#replace(this.#adGroupsByCampaign, rec.value.campaign_id, rec, next);
    return next;
  }

  replaceAd(rec: AdRecord, value: Ad): AdRecord {
    const next = { account: rec.account, value };
    this.#ads.set(value.ad_id, next);
    this.#replace(this.#adsByAdGroup, rec.value.ad_group_id, rec, next);
    return next;
  }

  #append<R extends object>(lists: CowMap<string, R[]>, parent: string, rec: R): void {
    const shared = lists.get(parent);
    const list = shared ? this.#generation.writable(shared, (s) => s.slice()) : this.#generation.own<R[]>([]);
    if (list !== shared) lists.set(parent, list);
    this.#position.set(rec, list.length);
    list.push(rec);
  }

  #replace<R extends object>(lists: CowMap<string, R[]>, parent: string, old: R, next: R): void {
    const shared = lists.get(parent);
    const index = this.#position.get(old);
    if (!shared || index === undefined || shared[index] !== old) throw new Error('sandbox store: replaced record is not in its list');
    const list = this.#generation.writable(shared, (s) => s.slice());
    if (list !== shared) lists.set(parent, list);
    list[index] = next;
    this.#position.set(next, index);
  }

  toData(): StateData {
    return stateDataOf({ ...this.#image(), oauth: this.oauth });
  }

  #image(): Omit<FrozenState, 'oauth'> {
    return {
      accounts: this.accounts,
      stores: this.#stores,
      campaigns: this.#campaigns.frozen(),
      campaignsByAccount: this.#campaignsByAccount.frozen(),
      adGroups: this.#adGroups.frozen(),
      adGroupsByCampaign: this.#adGroupsByCampaign.frozen(),
      ads: this.#ads.frozen(),
      adsByAdGroup: this.#adsByAdGroup.frozen(),
      tokens: this.tokens.frozen(),
      idempotency: this.idempotency.frozen(),
      history: { campaigns: this.#historyMaps.campaigns.frozen(), adGroups: this.#historyMaps.adGroups.frozen() },
      rider: this.riderSnapshot ? this.riderSnapshot() : this.rider,
      ids: this.ids.toData(),
    };
  }
}

/** A frozen state as the state file holds it. */
export function stateDataOf(frozen: FrozenState): StateData {
  return {
    version: 1,
    accounts: frozen.accounts,
    stores: Object.fromEntries(frozen.stores),
    campaigns: [...frozen.campaigns.values()],
    adGroups: [...frozen.adGroups.values()],
    ads: [...frozen.ads.values()],
    tokens: [...frozen.tokens.values()],
    idempotency: [...frozen.idempotency.values()],
    oauth: frozen.oauth,
    rider: frozen.rider,
    history: { campaigns: Object.fromEntries(frozen.history.campaigns), adGroups: Object.fromEntries(frozen.history.adGroups) },
    ids: frozen.ids,
  };
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
