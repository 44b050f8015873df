// The ads API's batch-writable resources, described once: where they live, the body's
// array key and their id field. Bulk writes, dry-run look-ups and the commands all work from
// these descriptors. The schemas of their items are in bulk/resource-schemas.ts: a list
// needs none, and zod is the largest module a write loads.
import { UsageError } from '../base/errors.js';

/** Where a resource's collection is: the account, and for ad groups and ads their parents. */
export interface AdsScope {
  account: string;
  campaign?: string;
  adGroup?: string;
}

export interface AdsResource {
  /** Singular noun for messages, e.g. "ad group". */
  noun: string;
  /** The key of the batch body and the list response, e.g. "ad_groups". */
  wrapper: 'campaigns' | 'ad_groups' | 'ads';
  /** The item's id field, also the list's id filter parameter. */
  idField: 'campaign_id' | 'ad_group_id' | 'ad_id';
  /** Which parent each item needs besides the account (a row may give its own campaign_id). */
  parent?: 'campaign' | 'ad group';
  /** The collection path of a scope (ids already checked and encoded by the API layer). */
  path(scope: AdsScope, segment: (id: string, what: string) => string): string;
}

type Segment = (id: string, what: string) => string;
const campaignsPath = (s: AdsScope, seg: Segment) => `/v1/ads/${seg(s.account, 'account id')}/campaigns`;
const adGroupsPath = (s: AdsScope, seg: Segment) => `${campaignsPath(s, seg)}/${seg(s.campaign ?? '', 'campaign id')}/ad-groups`;

export const CAMPAIGNS: AdsResource = {
  noun: 'campaign',
  wrapper: 'campaigns',
  idField: 'campaign_id',
  path: campaignsPath,
};

export const AD_GROUPS: AdsResource = {
  noun: 'ad group',
  wrapper: 'ad_groups',
  idField: 'ad_group_id',
  parent: 'campaign',
  path: adGroupsPath,
};

export const ADS: AdsResource = {
  noun: 'ad',
  wrapper: 'ads',
  idField: 'ad_id',
  parent: 'ad group',
  path: (s, seg) => `${adGroupsPath(s, seg)}/${seg(s.adGroup ?? '', 'ad group id')}/ads`,
};

const RESOURCES: readonly AdsResource[] = [CAMPAIGNS, AD_GROUPS, ADS];

/** The resource a plan, a run or a tool's input names (`campaigns`, `ad_groups`, `ads`); `where` names the input in the error. */
export function resourceNamed(wrapper: string, where: string): AdsResource {
  const resource = RESOURCES.find((r) => r.wrapper === wrapper);
  if (!resource) throw new UsageError(`${where}: unknown resource ${JSON.stringify(wrapper)} (campaigns, ad_groups or ads)`);
  return resource;
}
