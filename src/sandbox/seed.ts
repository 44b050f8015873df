// Deterministic seed data: the same seed gives the same data, ids included.
import type { AdAccount, Store } from '../schemas/ads.js';
import { intBetween, mulberry32, pick, uuidFrom, type Rng } from './prng.js';
import type { AdGroupRecord, AdRecord, CampaignRecord, StateData } from './store.js';

export interface SeedOptions {
  seed: number;
  /** Campaigns in the first ad account (default DEFAULT_CAMPAIGNS). */
  campaigns?: number;
}

export const DEFAULT_CAMPAIGNS = 25;
/** Only this many campaigns per account get ad groups, so huge seeds stay small. */
export const CAMPAIGNS_WITH_AD_GROUPS = 300;
/** Shared by every seeded resource (never mutated) to keep huge seeds small. */
const PERMISSIONS = ['READ', 'UPDATE', 'DELETE'];
const BASE_TIME = Date.parse('2025-01-06T09:00:00Z');
const EMAILS = ['alex.morgan@example.com', 'sam.lee@example.com', 'jordan.diaz@example.com'];

interface AccountPlan {
  name: string;
  country: string;
  currency: string;
  type: string;
  billing: string;
  active: boolean;
  stores: number;
  city: string;
  region: string;
  lat: number;
  lng: number;
}

const PLANS: AccountPlan[] = [
  {
    name: 'Sandbox Burgers US',
    country: 'US',
    currency: 'USD',
    type: 'USER_STORES_GROUP',
    billing: 'ACCOUNT_BILLING_MODE_AUTO',
    active: true,
    stores: 60,
    city: 'San Francisco',
    region: 'CA',
    lat: 37.7749,
    lng: -122.4194,
  },
  {
    name: 'Sandbox Grocers',
    country: 'US',
    currency: 'USD',
    type: 'OFD',
    billing: 'ACCOUNT_BILLING_MODE_MANUAL',
    active: true,
    stores: 8,
    city: 'Austin',
    region: 'TX',
    lat: 30.2672,
    lng: -97.7431,
  },
  {
    name: 'Sandbox Café Paris',
    country: 'FR',
    currency: 'EUR',
    type: 'USER_STORES_GROUP',
    billing: 'ACCOUNT_BILLING_MODE_AUTO',
    active: true,
    stores: 8,
    city: 'Paris',
    region: 'IDF',
    lat: 48.8566,
    lng: 2.3522,
  },
  {
    name: 'Sandbox Closed Ltd',
    country: 'GB',
    currency: 'GBP',
    type: 'OFD',
    billing: 'ACCOUNT_BILLING_MODE_MANUAL',
    active: false,
    stores: 3,
    city: 'London',
    region: 'LND',
    lat: 51.5072,
    lng: -0.1276,
  },
];

const STREETS = ['Market St', 'Main St', 'Oak Ave', 'Pine St', 'Elm St', 'Harbor Blvd', 'Rue de Rivoli', 'High St'];
const STORE_KINDS = ['Burgers', 'Pizza', 'Sushi', 'Tacos', 'Deli', 'Bakery', 'Noodles', 'Salads'];
const KEYWORDS = ['burger', 'pizza', 'vegan', 'late night', 'coffee', 'sushi', 'family meal', 'breakfast'];

const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function seedData(options: SeedOptions): StateData {
  const rng = mulberry32(options.seed);
  // Ids made later through the API are numbered from the same seed (id-sequence.ts).
  const ids = { seed: String(options.seed), next: 0 };
  const data: StateData = { version: 1, accounts: [], stores: {}, campaigns: [], adGroups: [], ads: [], tokens: [], idempotency: [], ids };
  PLANS.forEach((plan, index) => {
    const account = makeAccount(rng, plan);
    data.accounts.push({ value: account, active: plan.active });
    const stores = makeStores(rng, plan);
    data.stores[account.ad_account_id] = stores;
    if (!plan.active) return;
    const count = index === 0 ? (options.campaigns ?? DEFAULT_CAMPAIGNS) : DEFAULT_CAMPAIGNS;
    seedCampaigns(rng, data, account, stores, count);
  });
  return data;
}

function makeAccount(rng: Rng, plan: AccountPlan): AdAccount {
  return {
    ad_account_id: uuidFrom(rng),
    name: plan.name,
    country_code: plan.country,
    currency_code: plan.currency,
    account_type: plan.type,
    billing: {
      address: {
        address_line1: `${intBetween(rng, 1, 999)} ${pick(rng, STREETS)}`,
        ...(plan.billing === 'ACCOUNT_BILLING_MODE_AUTO' ? { address_line2: `Suite ${intBetween(rng, 100, 900)}` } : {}),
        city: plan.city,
        state: plan.region,
        country_code: plan.country,
        postal_code: String(intBetween(rng, 10000, 99999)),
      },
      type: plan.billing,
    },
  };
}

function makeStores(rng: Rng, plan: AccountPlan): Store[] {
  const stores: Store[] = [];
  for (let i = 0; i < plan.stores; i++) {
    const id = uuidFrom(rng);
    stores.push({
      id,
      name: `${plan.name.replace('Sandbox ', '')} ${pick(rng, STORE_KINDS)} #${i + 1}`,
      currency_code: plan.currency,
      image_url: `https://images.example.com/stores/${id}.jpg`,
      address: {
        address_line1: `${intBetween(rng, 1, 2500)} ${pick(rng, STREETS)}`,
        ...(i % 3 === 0 ? { address_line2: `Unit ${intBetween(rng, 1, 40)}` } : {}),
        city: plan.city,
        region: plan.region,
        postal_code: String(intBetween(rng, 10000, 99999)),
        country: plan.country,
        latitude: round6(plan.lat + (rng() - 0.5) / 10),
        longitude: round6(plan.lng + (rng() - 0.5) / 10),
      },
    });
  }
  return stores;
}

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

function budget(rng: Rng, i: number, currency: string) {
  return {
    unit: i % 2 === 0 ? 'BUDGET_UNIT_DAILY' : 'BUDGET_UNIT_WEEKLY',
    total: { amount_e5: String(intBetween(rng, 10, 500) * 100000), currency_code: currency },
    ...(i % 5 === 0 ? { cofunding_sources: [{ funding_percentage: 100 }] } : {}),
  } as const;
}

function seedCampaigns(rng: Rng, data: StateData, account: AdAccount, stores: Store[], count: number): void {
  const accountId = account.ad_account_id;
  let time = BASE_TIME;
  for (let i = 0; i < count; i++) {
    time += intBetween(rng, 60, 7200) * 1000;
    const created = iso(time);
    const updated = i % 3 === 0 ? iso(time + intBetween(rng, 3600, 86400) * 1000) : created;
    const email = EMAILS[i % EMAILS.length]!;
    const campaign: CampaignRecord = {
      account: accountId,
      value: {
        campaign_id: uuidFrom(rng),
        name: `Campaign ${String(i + 1).padStart(3, '0')} ${pick(rng, KEYWORDS)}`,
        created_at: created,
        updated_at: updated,
        created_by_email: email,
        updated_by_email: i % 3 === 0 ? EMAILS[(i + 1) % EMAILS.length]! : email,
        ...(i % 3 !== 2 ? { budget: budget(rng, i, account.currency_code) } : {}),
        configured_status: i % 4 === 3 ? 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' : 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
        effective_status: 'CAMPAIGN_EFFECTIVE_STATUS_ACTIVE',
        permissions: PERMISSIONS,
      },
    };
    data.campaigns.push(campaign);
    if (i < CAMPAIGNS_WITH_AD_GROUPS) {
      const groups = i === 0 ? 4 : intBetween(rng, 0, 4);
      for (let j = 0; j < groups; j++) seedAdGroup(rng, data, account, stores, campaign, time, j);
    }
  }
}

function seedAdGroup(rng: Rng, data: StateData, account: AdAccount, stores: Store[], campaign: CampaignRecord, time: number, j: number): void {
  const g = data.adGroups.length;
  const currency = account.currency_code;
  const start = time + 86400000 * (1 + j);
  const storeIds = new Set<string>();
  const wanted = intBetween(rng, 1, Math.min(3, stores.length));
  while (storeIds.size < wanted) storeIds.add(pick(rng, stores).id);
  const criteria: unknown[] = [];
  if (g % 3 === 0) criteria.push({ keyword_targeting: { keywords: [pick(rng, KEYWORDS), pick(rng, KEYWORDS)], match_type: 'MATCH_TYPE_EXACT' } });
  if (g % 3 === 1) criteria.push({ keyword_targeting: { keywords: [pick(rng, KEYWORDS)], match_type: 'MATCH_TYPE_BROAD' } });
  if (g % 3 !== 0) criteria.push({ platform_one: {} });
  const value = {
    ad_group_id: uuidFrom(rng),
    campaign_id: campaign.value.campaign_id,
    name: `Ad group ${j + 1} of ${campaign.value.name}`,
    ad_product: g % 2 === 0 ? 'SPONSORED_LISTING' : 'SPONSORED_SEARCH',
    schedule: { start_time: iso(start), ...(g % 2 === 0 ? { end_time: iso(start + 30 * 86400000) } : {}) },
    ...(g % 3 !== 2 ? { budget: budget(rng, g, currency) } : {}),
    bidding: g % 2 === 1 ? { auto: {} } : { manual: { bid_amount: { amount_e5: String(intBetween(rng, 5, 300) * 10000), currency_code: currency } } },
    ...(g % 5 !== 4 ? { targeting: { negation: false, operator: 'AND', criteria } } : {}),
    ...(g % 4 !== 3 ? { dayparting_schedule: dayparting(g) } : {}),
    subjects: { stores: { store_ids: [...storeIds] } },
    configured_status: g % 4 === 1 ? 'AD_GROUP_CONFIGURED_STATUS_PAUSED' : 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
    effective_status: 'AD_GROUP_EFFECTIVE_STATUS_ACTIVE',
    permissions: PERMISSIONS,
  };
  const rec: AdGroupRecord = { account: account.ad_account_id, value };
  data.adGroups.push(rec);
  const ads = g === 0 ? 3 : intBetween(rng, 0, 3);
  for (let k = 0; k < ads; k++) {
    const ad: AdRecord = {
      account: account.ad_account_id,
      value: { ad_id: uuidFrom(rng), ad_group_id: value.ad_group_id, campaign_id: value.campaign_id, name: `Ad ${k + 1} (${pick(rng, KEYWORDS)})` },
    };
    data.ads.push(ad);
  }
}

/** Seven days, Monday first; weekdays 11:00-14:00 and 17:00-22:00, weekends until end of day (hour 24). */
function dayparting(g: number) {
  const days = [];
  for (let d = 0; d < 7; d++) {
    const weekend = d >= 5;
    const intervals = weekend
      ? [{ start_time: { hour: 10, minute: 0 }, end_time: { hour: 24, minute: 0 } }]
      : [
          { start_time: { hour: 11, minute: g % 2 === 0 ? 0 : 30 }, end_time: { hour: 14, minute: 0 } },
          { start_time: { hour: 17, minute: 0 }, end_time: { hour: 22, minute: 45 } },
        ];
    days.push({ intervals });
  }
  return { dayparting_day_schedule: days };
}
