// Helpers shared by the ads read and write routes.
import { isUtf8 } from 'node:buffer';
import type { z } from 'zod';
import type { Campaign } from '../schemas/ads.js';
import { MAX_JSON_DEPTH } from '../schemas/input-limits.js';
import { describeZodError } from '../schemas/issues.js';
import { withoutNulls } from '../schemas/json-nulls.js';
import type { SandboxContext } from './context.js';
import { adsError, header, type SandboxRequest } from './http.js';
import type { AccountRecord, AdGroupRecord, CampaignRecord } from './store.js';

export const PERMISSIONS = ['READ', 'UPDATE', 'DELETE'];

export const isoNow = (ctx: SandboxContext) => new Date(ctx.now()).toISOString().replace(/\.\d{3}Z$/, 'Z');

export function requireAccount(ctx: SandboxContext, req: SandboxRequest): AccountRecord {
  const id = req.params.account_id ?? req.params.ad_account_id ?? '';
  const account = ctx.store.account(id);
  if (!account) throw adsError(404, 'NotFound', `ad account ${id} not found`);
  return account;
}

export function requireCampaign(ctx: SandboxContext, req: SandboxRequest, account: AccountRecord): CampaignRecord {
  const id = req.params.campaign_id ?? '';
  const campaign = ctx.store.campaign(account.value.ad_account_id, id);
  if (!campaign) throw adsError(404, 'NotFound', campaignNotFound(id, account.value.ad_account_id));
  return campaign;
}

export function requireAdGroup(ctx: SandboxContext, req: SandboxRequest, campaign: CampaignRecord): AdGroupRecord {
  const id = req.params.ad_group_id ?? '';
  const group = ctx.store.adGroup(campaign.value.campaign_id, id);
  if (!group) throw adsError(404, 'NotFound', adGroupNotFound(id, campaign.value.campaign_id));
  return group;
}

export const campaignNotFound = (id: string, accountId: string) => `campaign ${id} not found in account ${accountId}`;
export const adGroupNotFound = (id: string, campaignId: string) => `ad group ${id} not found in campaign ${campaignId}`;

export function parseBody<S extends z.ZodType>(req: SandboxRequest, schema: S): z.infer<S> {
  const type = header(req, 'content-type');
  if (!type || !/^application\/json\s*(;|$)/i.test(type)) {
    throw adsError(415, 'BadRequest', `Content-Type must be application/json${type ? `, not ${type}` : ' (none was sent)'}`);
  }
  // JSON is UTF-8 (RFC 8259): a bad byte is refused, not stored as U+FFFD in a name.
  if (!isUtf8(req.body)) throw adsError(400, 'BadRequest', 'body is not valid UTF-8');
  let raw: unknown;
  try {
    raw = JSON.parse(req.body.toString('utf8'));
  } catch (error) {
    throw adsError(400, 'BadRequest', `body is not valid JSON: ${(error as Error).message}`);
  }
  // The client's schema also reads MATCH_TYPE_* (the response spelling, so -o json goes back
  // through --from-json); the API's inputs take EXACT or BROAD only, and so does the sandbox.
  const spelled = responseMatchType(raw, '');
  if (spelled) throw adsError(400, 'BadRequest', `${spelled}: must be EXACT or BROAD (${MATCH_TYPE_PREFIX}* is how responses spell it)`);
  const parsed = schema.safeParse(withoutNulls(raw));
  if (!parsed.success) throw adsError(400, 'BadRequest', describeZodError(parsed.error, ''));
  return parsed.data;
}

const MATCH_TYPE_PREFIX = 'MATCH_TYPE_';

/** The path of the first match_type given in the response spelling, if any. */
function responseMatchType(value: unknown, path: string, depth = 0): string | undefined {
  // Deeper than any valid body (the schema refuses it): not worth walking.
  if (!value || typeof value !== 'object' || depth > MAX_JSON_DEPTH) return undefined;
  for (const [key, inner] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key === 'match_type' && typeof inner === 'string' && inner.startsWith(MATCH_TYPE_PREFIX)) return at;
    const found = responseMatchType(inner, at, depth + 1);
    if (found) return found;
  }
  return undefined;
}

export function renderCampaign(ctx: SandboxContext, rec: CampaignRecord): Campaign {
  const ad_groups = ctx.store.adGroups(rec.value.campaign_id).map(({ value: g }) => ({
    ad_group_id: g.ad_group_id,
    name: g.name,
    ad_product: g.ad_product,
    configured_status: g.configured_status,
    effective_status: g.effective_status,
    permissions: g.permissions,
  }));
  return { ...rec.value, ad_groups };
}

/** A per-item business-rule failure inside a batch. */
export class ItemError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type BatchItemResult = { success: { id: string } } | { failure: { error_code: string; error_message: string } };

/** Applies one batch item; with the itemFailRate fault, some items fail transiently, unapplied. */
export function batchItem(ctx: SandboxContext, apply: () => string): BatchItemResult {
  if (ctx.chaos.itemFails(ctx.faults.itemFailRate)) {
    return { failure: { error_code: 'Unavailable', error_message: 'the item could not be processed right now (injected); it was not applied, retry it' } };
  }
  try {
    return { success: { id: apply() } };
  } catch (error) {
    if (error instanceof ItemError) return { failure: { error_code: error.code, error_message: error.message } };
    throw error;
  }
}
