// The schemas of the items each batch-writable resource takes, to create and to update: the
// zod schemas the sandbox also uses, loaded only by writes.
import type { z } from 'zod';
import type { AdsResource } from '../api/ads-resources.js';
import { CreateAdGroupInput, CreateAdInput, CreateCampaignInput, UpdateAdGroupInput, UpdateAdInput, UpdateCampaignInput } from '../schemas/ads.js';

const SCHEMAS: Record<AdsResource['wrapper'], { create: z.ZodType; update: z.ZodType }> = {
  campaigns: { create: CreateCampaignInput, update: UpdateCampaignInput },
  ad_groups: { create: CreateAdGroupInput, update: UpdateAdGroupInput },
  ads: { create: CreateAdInput, update: UpdateAdInput },
};

export function itemSchema(resource: AdsResource, mode: 'create' | 'patch'): z.ZodType {
  const schemas = SCHEMAS[resource.wrapper];
  return mode === 'create' ? schemas.create : schemas.update;
}
