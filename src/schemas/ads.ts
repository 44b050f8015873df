// One zod schema per ads resource and input (spec 2.x, 4.1; the OpenAPI reference where the
// spec is silent). The CLI validates with these before sending, the sandbox validates
// request bodies with the same ones, and the CSV validator maps rows onto them.
import { idProblem } from './ids.js';
import * as z from 'zod';
import { MAX_BATCH_ITEMS } from './limits.js';
import { isAmountE5, MAX_AMOUNT_E5 } from './money.js';
import { textProblem } from './text.js';

// The limits live in a zod-free module so that --help and lists can name them cheaply.
export { DEFAULT_PAGE_LIMIT, MAX_BATCH_ITEMS, MAX_PAGE_LIMIT } from './limits.js';

export const CAMPAIGN_STATUSES = ['CAMPAIGN_CONFIGURED_STATUS_ACTIVE', 'CAMPAIGN_CONFIGURED_STATUS_PAUSED'] as const;
export const AD_GROUP_STATUSES = ['AD_GROUP_CONFIGURED_STATUS_ACTIVE', 'AD_GROUP_CONFIGURED_STATUS_PAUSED'] as const;
export const BUDGET_UNITS = ['BUDGET_UNIT_DAILY', 'BUDGET_UNIT_WEEKLY', 'BUDGET_UNIT_FIXED'] as const;
export const AD_PRODUCTS = ['SPONSORED_LISTING', 'SPONSORED_SEARCH'] as const;
export const MATCH_TYPES = ['MATCH_TYPE_EXACT', 'MATCH_TYPE_BROAD'] as const;
export const INPUT_MATCH_TYPES = ['EXACT', 'BROAD'] as const;
export const PERMISSIONS = ['READ', 'UPDATE', 'DELETE'] as const;

export const SCOPES = {
  accountsRead: 'ads.ad-accounts.read',
  campaignsRead: 'ads.campaigns.read',
  campaignsWrite: 'ads.campaigns.write',
  reporting: 'ads.reporting',
  productsRead: 'ads.products.read',
} as const;

/** An id a write names (it goes into URL paths and bodies): see ids.ts. */
const id = z.string().superRefine((value, ctx) => {
  const problem = idProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: `the id ${problem}` });
});
/** Text the API stores and shows: no control characters, no lone surrogates (text.ts). */
const text = z.string().superRefine((value, ctx) => {
  const problem = textProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', message: problem });
});
// Names are kept exactly as given (no trimming): what a user sends is what is stored.
const name = text.max(255, 'must be at most 255 characters').refine((s) => s.trim() !== '', 'must not be blank');
const timestamp = z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time, e.g. 2026-01-31T00:00:00Z' });

export const CurrencyAmount = z.strictObject({
  // One message per value: digits first, then the API's int64 (a 400-digit amount is not one).
  amount_e5: z.string().superRefine((value, ctx) => {
    if (!/^\d+$/.test(value)) ctx.addIssue({ code: 'custom', message: 'must be a string of digits (amount x 10^5)' });
    else if (!isAmountE5(value)) ctx.addIssue({ code: 'custom', message: `must be at most ${MAX_AMOUNT_E5} (an int64), not ${value.length} digits` });
  }),
  currency_code: z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code'),
});
export type CurrencyAmount = z.infer<typeof CurrencyAmount>;

const budgetShape = {
  unit: z.enum(BUDGET_UNITS),
  total: CurrencyAmount,
};
export const BudgetInput = z.strictObject(budgetShape);
export type BudgetInput = z.infer<typeof BudgetInput>;

export const Budget = BudgetInput.extend({
  cofunding_sources: z.array(z.object({ funding_percentage: z.number() })).optional(),
});

export const CreateCampaignInput = z.strictObject({
  name,
  configured_status: z.enum(CAMPAIGN_STATUSES),
  budget: BudgetInput.optional(),
});
export type CreateCampaignInput = z.infer<typeof CreateCampaignInput>;

export const UpdateCampaignInput = z.strictObject({
  campaign_id: id,
  name: name.optional(),
  configured_status: z.enum(CAMPAIGN_STATUSES).optional(),
  budget: clearable(budgetShape).optional(),
});
export type UpdateCampaignInput = z.infer<typeof UpdateCampaignInput>;

export const Schedule = z.strictObject({
  start_time: timestamp,
  end_time: timestamp.optional(),
});

const DaypartingTime = z.strictObject({
  hour: z.number().int().min(0).max(24),
  minute: z
    .number()
    .int()
    .min(0)
    .max(59)
    .refine((m) => m % 15 === 0, 'must be a multiple of 15'),
});
const DaypartingInterval = z.strictObject({ start_time: DaypartingTime, end_time: DaypartingTime });
const daypartingShape = {
  dayparting_day_schedule: z.array(z.strictObject({ intervals: z.array(DaypartingInterval) })).length(7, 'must hold exactly 7 days (Monday first)'),
};
export const DaypartingSchedule = z.strictObject(daypartingShape);

export const Bidding = z.union(
  [
    z.strictObject({ auto: z.strictObject({}) }),
    z.strictObject({ manual: z.strictObject({ bid_amount: CurrencyAmount }) }),
    z.strictObject({ goal_based: z.strictObject({ roas_goal: z.number().positive() }) }),
  ],
  { error: 'must be exactly one of {auto: {}}, {manual: {bid_amount}}, {goal_based: {roas_goal}}' },
);
export type Bidding = z.infer<typeof Bidding>;

export const KeywordTargeting = z.strictObject({
  keywords: z.array(text.min(1)).min(1, 'must hold at least one keyword'),
  // The create and update inputs of the OpenAPI take EXACT/BROAD; responses say MATCH_TYPE_*.
  // Both are read, so that targeting from -o json goes back as it came; EXACT/BROAD is sent.
  match_type: z
    .enum([...INPUT_MATCH_TYPES, ...MATCH_TYPES], { error: 'must be EXACT or BROAD' })
    .transform((type) => type.replace(/^MATCH_TYPE_/, '') as (typeof INPUT_MATCH_TYPES)[number]),
});

/** order_frequency of the OpenAPI: orders between the bounds (both exclusive; upper -1: no limit) in the past days. */
export const OrderFrequency = z
  .strictObject({
    lower_bound: z.number().int().min(0),
    upper_bound: z.number().int().min(-1, 'must be -1 (no upper limit) or more'),
    time_range: z.strictObject({
      past_days_range: z
        .strictObject({ start_day: z.number().int().min(0), end_day: z.number().int().min(0) })
        .refine((r) => r.end_day >= r.start_day, { error: 'end_day must not be before start_day', path: ['end_day'] }),
    }),
  })
  .refine((f) => f.upper_bound === -1 || f.upper_bound > f.lower_bound, {
    error: 'must be -1 (no upper limit) or more than lower_bound',
    path: ['upper_bound'],
  });

const emptyCriterion = z.strictObject({});
/** The criterion kinds of the OpenAPI's create and update inputs (`criteria`: a nested group). */
export const CRITERIA = [
  'keyword_targeting',
  'platform_one',
  'order_frequency',
  'new_to_brand',
  'new_to_location',
  'existing_to_location',
  'lapsed_to_location',
  'criteria',
] as const;

export interface TargetingCriterionValue {
  keyword_targeting?: z.infer<typeof KeywordTargeting>;
  platform_one?: Record<string, never>;
  order_frequency?: z.infer<typeof OrderFrequency>;
  new_to_brand?: Record<string, never>;
  new_to_location?: Record<string, never>;
  existing_to_location?: Record<string, never>;
  lapsed_to_location?: Record<string, never>;
  criteria?: TargetingValue;
}
export interface TargetingValue {
  negation: boolean;
  operator: 'AND' | 'OR';
  criteria: TargetingCriterionValue[];
}

/** Exactly one criterion per entry; an object of optional keys so that a problem inside one (a match type) is named by its path. */
export const TargetingCriterion: z.ZodType<TargetingCriterionValue, unknown> = z.lazy(() =>
  z
    .strictObject({
      keyword_targeting: KeywordTargeting.optional(),
      platform_one: emptyCriterion.optional(),
      order_frequency: OrderFrequency.optional(),
      new_to_brand: emptyCriterion.optional(),
      new_to_location: emptyCriterion.optional(),
      existing_to_location: emptyCriterion.optional(),
      lapsed_to_location: emptyCriterion.optional(),
      criteria: Targeting.optional(),
    })
    .refine((criterion) => Object.keys(criterion).length === 1, { error: `must be exactly one of ${CRITERIA.join(', ')}` }),
);

const targetingShape = {
  negation: z.boolean(),
  operator: z.enum(['AND', 'OR']),
  criteria: z.array(TargetingCriterion),
};
export const Targeting: z.ZodType<TargetingValue, unknown> = z.strictObject(targetingShape);
export type Targeting = TargetingValue;

/**
 * An update's nested object that an empty object clears, as the OpenAPI's text says (its
 * schema requires the keys): `{}` passes; anything else needs every key of the shape.
 */
function clearable<S extends Record<string, z.ZodType>>(shape: S) {
  const optional = Object.fromEntries(Object.entries(shape).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof S]: z.ZodOptional<S[K]>;
  };
  return z.strictObject(optional).superRefine((value, ctx) => {
    if (Object.keys(value).length === 0) return;
    for (const key of Object.keys(shape))
      if ((value as Record<string, unknown>)[key] === undefined)
        ctx.addIssue({ code: 'custom', path: [key], message: 'is required ({} clears the whole field)' });
  });
}

export const AdSubjects = z.strictObject({
  stores: z.strictObject({ store_ids: z.array(id).min(1, 'must hold at least one store id') }),
});

export const CreateAdGroupInput = z.strictObject({
  name,
  ad_product: z.enum(AD_PRODUCTS),
  configured_status: z.enum(AD_GROUP_STATUSES),
  budget: BudgetInput.optional(),
  schedule: Schedule,
  dayparting_schedule: DaypartingSchedule.optional(),
  bidding: Bidding,
  targeting: Targeting.optional(),
  ad_subjects: AdSubjects,
});
export type CreateAdGroupInput = z.infer<typeof CreateAdGroupInput>;

export const UpdateAdGroupInput = z.strictObject({
  ad_group_id: id,
  name: name.optional(),
  configured_status: z.enum(AD_GROUP_STATUSES).optional(),
  budget: clearable(budgetShape).optional(),
  schedule: Schedule.optional(),
  dayparting_schedule: clearable(daypartingShape).optional(),
  bidding: Bidding.optional(),
  targeting: clearable(targetingShape).optional(),
  ad_subjects: AdSubjects.optional(),
});
export type UpdateAdGroupInput = z.infer<typeof UpdateAdGroupInput>;

export const CreateAdInput = z.strictObject({ name });
export type CreateAdInput = z.infer<typeof CreateAdInput>;

/** update-ads of the OpenAPI: an ad's name is all that changes. */
export const UpdateAdInput = z.strictObject({ ad_id: id, name });
export type UpdateAdInput = z.infer<typeof UpdateAdInput>;

// Request bodies: the batch wrappers of spec 4.1.
const batch = <T extends z.ZodType>(item: T) =>
  z.array(item).min(1, 'must hold at least one item').max(MAX_BATCH_ITEMS, `must hold at most ${MAX_BATCH_ITEMS} items`);
export const CreateCampaignsBody = z.strictObject({ campaigns: batch(CreateCampaignInput) });
export const UpdateCampaignsBody = z.strictObject({ campaigns: batch(UpdateCampaignInput) });
export const CreateAdGroupsBody = z.strictObject({ ad_groups: batch(CreateAdGroupInput) });
export const UpdateAdGroupsBody = z.strictObject({ ad_groups: batch(UpdateAdGroupInput) });
export const CreateAdsBody = z.strictObject({ ads: batch(CreateAdInput) });
export const UpdateAdsBody = z.strictObject({ ads: batch(UpdateAdInput) });

// Resources as the API returns them. Loose (z.object) so that new response attributes,
// which clients must tolerate (spec 9.2), pass through.
export const AdAccount = z.object({
  ad_account_id: z.string(),
  name: z.string(),
  country_code: z.string(),
  currency_code: z.string(),
  account_type: z.string(),
  billing: z.object({
    address: z.object({
      address_line1: z.string(),
      address_line2: z.string().optional(),
      city: z.string(),
      state: z.string(),
      country_code: z.string(),
      postal_code: z.string(),
    }),
    type: z.string(),
  }),
});
export type AdAccount = z.infer<typeof AdAccount>;

export const Store = z.object({
  id: z.string(),
  name: z.string(),
  currency_code: z.string(),
  image_url: z.string(),
  address: z.object({
    address_line1: z.string(),
    address_line2: z.string().optional(),
    city: z.string(),
    region: z.string(),
    postal_code: z.string(),
    country: z.string(),
    latitude: z.number(),
    longitude: z.number(),
  }),
});
export type Store = z.infer<typeof Store>;

const Summary = z.object({
  name: z.string(),
  configured_status: z.string(),
  effective_status: z.string(),
  permissions: z.array(z.string()),
});

export const Campaign = z.object({
  campaign_id: z.string(),
  name: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by_email: z.string(),
  updated_by_email: z.string(),
  budget: Budget.optional(),
  ad_groups: z.array(Summary.extend({ ad_group_id: z.string(), ad_product: z.string() })),
  configured_status: z.string(),
  effective_status: z.string(),
  permissions: z.array(z.string()),
});
export type Campaign = z.infer<typeof Campaign>;

export const AdGroup = z.object({
  ad_group_id: z.string(),
  campaign_id: z.string(),
  name: z.string(),
  ad_product: z.string(),
  schedule: z.object({ start_time: z.string(), end_time: z.string().optional() }),
  budget: Budget.optional(),
  bidding: z.record(z.string(), z.unknown()),
  targeting: z.unknown().optional(),
  dayparting_schedule: z.unknown().optional(),
  subjects: z.object({ stores: z.object({ store_ids: z.array(z.string()) }) }).optional(),
  configured_status: z.string(),
  effective_status: z.string(),
  permissions: z.array(z.string()),
});
export type AdGroup = z.infer<typeof AdGroup>;

export const Ad = z.object({
  ad_id: z.string(),
  ad_group_id: z.string(),
  campaign_id: z.string(),
  name: z.string(),
});
export type Ad = z.infer<typeof Ad>;

export const BatchResult = z.union([
  z.object({ success: z.object({ id: z.string() }) }),
  z.object({ failure: z.object({ error_code: z.string(), error_message: z.string() }) }),
]);
export type BatchResult = z.infer<typeof BatchResult>;

/** Batch item failure codes worth retrying: the item was not applied for a passing reason. */
export const TRANSIENT_ITEM_CODES = new Set(['Internal', 'Unavailable', 'RateLimitExceeded']);
