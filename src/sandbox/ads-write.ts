// POST/PATCH routes of the ads API (spec 4.1): batch create and update.
import {
  CreateAdGroupsBody,
  CreateAdsBody,
  UpdateAdsBody,
  CreateCampaignsBody,
  SCOPES,
  UpdateAdGroupsBody,
  UpdateCampaignsBody,
  type CreateAdGroupInput,
  type UpdateAdGroupInput,
} from '../schemas/ads.js';
import {
  adGroupNotFound,
  batchItem,
  campaignNotFound,
  isoNow,
  ItemError,
  parseBody,
  PERMISSIONS,
  requireAccount,
  requireAdGroup,
  requireCampaign,
} from './ads-common.js';
import { checkCurrency, checkSchedule, checkStores, clearedFields, normalizeTargeting } from './ads-rules.js';
import { authenticate } from './auth.js';
import { countWrite, type SandboxContext } from './context.js';
import { json, type Handler, type SandboxRequest, type SandboxResponse } from './http.js';
import { accountScope, idempotent } from './idempotency.js';
import type { AccountRecord, AdGroupValue } from './store.js';

function write(ctx: SandboxContext, apply: (req: SandboxRequest, email: string) => SandboxResponse): Handler {
  return (req) => {
    const caller = authenticate(ctx, req, SCOPES.campaignsWrite);
    // Keys are the account's: found before a stored answer is replayed (an unknown account is 404).
    const account = requireAccount(ctx, req);
    return idempotent(ctx, req, accountScope(account.value.ad_account_id), () => {
      const response = apply(req, caller.client.email);
      ctx.persister.changed();
      return response;
    });
  };
}

function checkAdGroup(ctx: SandboxContext, account: AccountRecord, i: number, item: Partial<CreateAdGroupInput>): void {
  const at = `ad_groups[${i}]`;
  checkCurrency(account, `${at}.budget.total.currency_code`, item.budget?.total);
  if (item.bidding && 'manual' in item.bidding) checkCurrency(account, `${at}.bidding.manual.bid_amount.currency_code`, item.bidding.manual.bid_amount);
  checkStores(account, ctx.store.accountStores(account.value.ad_account_id), `${at}.ad_subjects.stores.store_ids`, item.ad_subjects?.stores.store_ids);
  checkSchedule(`${at}.schedule`, item.schedule);
}

export function adsWriteHandlers(ctx: SandboxContext): Record<string, Handler> {
  return {
    createCampaigns: write(ctx, (req, email) => {
      const account = requireAccount(ctx, req);
      const body = parseBody(req, CreateCampaignsBody);
      const results = body.campaigns.map((item, i) =>
        batchItem(ctx, () => {
          checkCurrency(account, `campaigns[${i}].budget.total.currency_code`, item.budget?.total);
          const now = isoNow(ctx);
          const id = ctx.store.ids.uuid();
          ctx.store.addCampaign({
            account: account.value.ad_account_id,
            value: {
              campaign_id: id,
              name: item.name,
              created_at: now,
              updated_at: now,
              created_by_email: email,
              updated_by_email: email,
              ...(item.budget ? { budget: item.budget } : {}),
              configured_status: item.configured_status,
              effective_status: 'CAMPAIGN_EFFECTIVE_STATUS_ACTIVE',
              permissions: [...PERMISSIONS],
            },
          });
          ctx.store.history.campaignCreated(id, ctx.now());
          countWrite(ctx, id);
          return id;
        }),
      );
      return json(200, { results });
    }),

    updateCampaigns: write(ctx, (req, email) => {
      const account = requireAccount(ctx, req);
      const accountId = account.value.ad_account_id;
      const body = parseBody(req, UpdateCampaignsBody);
      const results = body.campaigns.map((item, i) =>
        batchItem(ctx, () => {
          const rec = ctx.store.campaign(accountId, item.campaign_id);
          if (!rec) throw new ItemError('NotFound', campaignNotFound(item.campaign_id, accountId));
          checkCurrency(account, `campaigns[${i}].budget.total.currency_code`, item.budget?.total);
          const { campaign_id: _id, ...given } = item;
          const { changes, cleared } = clearedFields(given);
          ctx.store.history.campaignChanging(item.campaign_id, rec.value, changes, ctx.now());
          // A new value, not a change in place: snapshots share the record (store.ts). The patch
          // schema's partial budget merges as Object.assign did before.
          const value = { ...rec.value, ...changes, updated_at: isoNow(ctx), updated_by_email: email } as typeof rec.value;
          for (const key of cleared) delete (value as Record<string, unknown>)[key];
          ctx.store.replaceCampaign(rec, value);
          countWrite(ctx, item.campaign_id);
          return item.campaign_id;
        }),
      );
      return json(200, { results });
    }),

    createAdGroups: write(ctx, (req) => {
      const account = requireAccount(ctx, req);
      const campaign = requireCampaign(ctx, req, account);
      const body = parseBody(req, CreateAdGroupsBody);
      const results = body.ad_groups.map((item, i) =>
        batchItem(ctx, () => {
          checkAdGroup(ctx, account, i, item);
          const id = ctx.store.ids.uuid();
          const { ad_subjects, targeting, ...rest } = item;
          const value: AdGroupValue = {
            ad_group_id: id,
            campaign_id: campaign.value.campaign_id,
            ...rest,
            ...(targeting ? { targeting: normalizeTargeting(targeting) } : {}),
            subjects: ad_subjects,
            effective_status: 'AD_GROUP_EFFECTIVE_STATUS_ACTIVE',
            permissions: [...PERMISSIONS],
          };
          ctx.store.addAdGroup({ account: account.value.ad_account_id, value });
          ctx.store.history.adGroupCreated(id, ctx.now());
          countWrite(ctx, id);
          return id;
        }),
      );
      return json(200, { results });
    }),

    updateAdGroups: write(ctx, (req) => {
      const account = requireAccount(ctx, req);
      const campaign = requireCampaign(ctx, req, account);
      const campaignId = campaign.value.campaign_id;
      const body = parseBody(req, UpdateAdGroupsBody);
      const results = body.ad_groups.map((item: UpdateAdGroupInput, i) =>
        batchItem(ctx, () => {
          const rec = ctx.store.adGroup(campaignId, item.ad_group_id);
          if (!rec) throw new ItemError('NotFound', adGroupNotFound(item.ad_group_id, campaignId));
          checkAdGroup(ctx, account, i, item as Partial<CreateAdGroupInput>);
          const { ad_group_id: _id, ad_subjects, ...given } = item;
          const { changes, cleared } = clearedFields(given);
          ctx.store.history.adGroupChanging(item.ad_group_id, rec.value, changes, ctx.now());
          const value = {
            ...rec.value,
            ...changes,
            ...(ad_subjects ? { subjects: ad_subjects } : {}),
            ...(changes.targeting ? { targeting: normalizeTargeting(changes.targeting) } : {}),
          } as typeof rec.value;
          for (const key of cleared) delete (value as Record<string, unknown>)[key];
          ctx.store.replaceAdGroup(rec, value);
          countWrite(ctx, item.ad_group_id);
          return item.ad_group_id;
        }),
      );
      return json(200, { results });
    }),

    createAds: write(ctx, (req) => {
      const account = requireAccount(ctx, req);
      const group = requireAdGroup(ctx, req, requireCampaign(ctx, req, account));
      const body = parseBody(req, CreateAdsBody);
      const results = body.ads.map((item) =>
        batchItem(ctx, () => {
          const id = ctx.store.ids.uuid();
          ctx.store.addAd({
            account: account.value.ad_account_id,
            value: { ad_id: id, ad_group_id: group.value.ad_group_id, campaign_id: group.value.campaign_id, name: item.name },
          });
          countWrite(ctx, id);
          return id;
        }),
      );
      return json(200, { results });
    }),
    updateAds: write(ctx, (req) => {
      const account = requireAccount(ctx, req);
      const group = requireAdGroup(ctx, req, requireCampaign(ctx, req, account));
      const body = parseBody(req, UpdateAdsBody);
      const results = body.ads.map((item) =>
        batchItem(ctx, () => {
          const ad = ctx.store.ads(group.value.ad_group_id).find((a) => a.value.ad_id === item.ad_id);
          if (!ad) throw new ItemError('NotFound', `ad ${item.ad_id} not found in ad group ${group.value.ad_group_id}`);
          ctx.store.replaceAd(ad, { ...ad.value, name: item.name });
          countWrite(ctx, item.ad_id);
          return item.ad_id;
        }),
      );
      return json(200, { results });
    }),
  };
}
