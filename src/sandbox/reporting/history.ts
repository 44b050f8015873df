// What a campaign's or ad group's delivery depended on in the past, so that a report of past
// days never changes when the resource is paused, re-budgeted or rescheduled today. A day is
// delivered in the state the resource had when the day began (UTC midnight): a change takes
// effect from the next day, and a resource created through the API delivers from the first day
// that begins after its creation. Only resources changed or created through the API have an
// entry (a seeded, untouched one is its current state on every day), and at most one change
// per resource per day is kept: only the state at each midnight matters.
import { DAY_MS } from './metrics.js';

/** The fields of a campaign that its delivery reads (metrics.ts). */
export interface CampaignDelivery {
  configured_status: string;
  budget?: unknown;
}

/** The fields of an ad group that its delivery reads (metrics.ts). */
export interface AdGroupDelivery extends CampaignDelivery {
  schedule: unknown;
}

interface PastState<S> {
  /** Sandbox time (ms) the state was replaced at; it held before. */
  until: number;
  state: S;
}

export interface Timeline<S> {
  /** Sandbox time of creation through the API; absent for seeded resources. */
  createdAt?: number;
  /** Oldest first. */
  past: Array<PastState<S>>;
}

/** As saved in the state file. */
export interface HistoryData {
  campaigns: Record<string, Timeline<CampaignDelivery>>;
  adGroups: Record<string, Timeline<AdGroupDelivery>>;
}

const CAMPAIGN_FIELDS = ['configured_status', 'budget'] as const;
const AD_GROUP_FIELDS = ['configured_status', 'budget', 'schedule'] as const;

/** Where the timelines are kept (the store passes copy-on-write maps: timelines are replaced, never changed). */
export interface HistoryMaps {
  campaigns: Map<string, Timeline<CampaignDelivery>>;
  adGroups: Map<string, Timeline<AdGroupDelivery>>;
}

export class DeliveryHistory {
  private readonly campaigns: Map<string, Timeline<CampaignDelivery>>;
  private readonly adGroups: Map<string, Timeline<AdGroupDelivery>>;

  /** The store loads and saves the maps (HistoryData in the state file). */
  constructor(maps: HistoryMaps = { campaigns: new Map(), adGroups: new Map() }) {
    this.campaigns = maps.campaigns;
    this.adGroups = maps.adGroups;
  }

  campaignCreated(id: string, at: number): void {
    this.campaigns.set(id, { createdAt: at, past: [] });
  }

  adGroupCreated(id: string, at: number): void {
    this.adGroups.set(id, { createdAt: at, past: [] });
  }

  /** Call before `changes` are applied to `current`, at sandbox time `at`. */
  campaignChanging(id: string, current: CampaignDelivery, changes: Partial<CampaignDelivery>, at: number): void {
    note(this.campaigns, id, pick(current, CAMPAIGN_FIELDS), changes, CAMPAIGN_FIELDS, at);
  }

  /** Call before `changes` are applied to `current`, at sandbox time `at`. */
  adGroupChanging(id: string, current: AdGroupDelivery, changes: Partial<AdGroupDelivery>, at: number): void {
    note(this.adGroups, id, pick(current, AD_GROUP_FIELDS), changes, AD_GROUP_FIELDS, at);
  }

  /** The campaign as it delivered on the day starting at `day`; undefined when it did not exist yet. */
  campaignOn<C extends CampaignDelivery & { campaign_id: string }>(campaign: C, day: number): C | undefined {
    return stateOn(this.campaigns.get(campaign.campaign_id), campaign, day);
  }

  /** The ad group as it delivered on the day starting at `day`; undefined when it did not exist yet. */
  adGroupOn<G extends AdGroupDelivery & { ad_group_id: string }>(group: G, day: number): G | undefined {
    return stateOn(this.adGroups.get(group.ad_group_id), group, day);
  }
}

function pick<S>(value: S, fields: readonly (keyof S)[]): S {
  const out = {} as S;
  for (const f of fields) if (value[f] !== undefined) out[f] = value[f];
  return out;
}

function note<S>(timelines: Map<string, Timeline<S>>, id: string, before: S, changes: Partial<S>, fields: readonly (keyof S)[], at: number): void {
  // Budgets and schedules are replaced whole by a patch, never edited in place, so the state
  // keeps references; JSON compares them only to skip patches that change no delivery field.
  const changed = fields.some((f) => f in changes && JSON.stringify(changes[f]) !== JSON.stringify(before[f]));
  if (!changed) return;
  const timeline = timelines.get(id) ?? { past: [] };
  // A state that began and ended within one day held at no midnight: no day delivered in it.
  const last = timeline.past.at(-1);
  if (last && Math.floor(last.until / DAY_MS) === Math.floor(at / DAY_MS)) return;
  // A new timeline, not a push: snapshots of the store share the old one.
  timelines.set(id, { ...timeline, past: [...timeline.past, { until: at, state: before }] });
}

function stateOn<V extends object, S>(timeline: Timeline<S> | undefined, current: V, day: number): V | undefined {
  if (!timeline) return current;
  if (timeline.createdAt !== undefined && timeline.createdAt > day) return undefined;
  // The state that held at the day's start: the first one replaced after it.
  const held = timeline.past.find((p) => p.until > day);
  if (!held) return current;
  // Fields absent from the past state (a campaign without a budget) are absent on that day.
  const overlay = { ...current } as Record<string, unknown>;
  for (const key of Object.keys(held.state as object)) overlay[key] = (held.state as Record<string, unknown>)[key];
  if (!('budget' in (held.state as object))) delete overlay.budget;
  return overlay as V;
}
