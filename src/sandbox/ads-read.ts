// GET routes of the ads API (spec 4.1).
import { SCOPES } from '../schemas/ads.js';
import { renderCampaign, requireAccount, requireAdGroup, requireCampaign } from './ads-common.js';
import { authenticate } from './auth.js';
import type { SandboxContext } from './context.js';
import { json, type Handler } from './http.js';
import { idFilter, paginate, type Page } from './pagination.js';

function withPage<T>(key: string, page: Page<T>) {
  return json(200, page.next ? { [key]: page.items, next_page_token: page.next } : { [key]: page.items });
}

function filtered<T>(items: readonly T[], ids: string[] | undefined, idOf: (item: T) => string): readonly T[] {
  if (!ids) return items;
  const wanted = new Set(ids);
  return items.filter((item) => wanted.has(idOf(item)));
}

export function adsReadHandlers(ctx: SandboxContext): Record<string, Handler> {
  return {
    listAdAccounts: (req) => {
      authenticate(ctx, req, SCOPES.accountsRead);
      const active = ctx.store.accounts.filter((a) => a.active).map((a) => a.value);
      return withPage('ad_accounts', paginate(req, 'ad-accounts', active));
    },
    listStores: (req) => {
      authenticate(ctx, req, SCOPES.accountsRead);
      const account = requireAccount(ctx, req);
      const id = account.value.ad_account_id;
      return withPage('stores', paginate(req, `stores:${id}`, ctx.store.accountStores(id)));
    },
    listCampaigns: (req) => {
      authenticate(ctx, req, SCOPES.campaignsRead);
      const account = requireAccount(ctx, req);
      const ids = idFilter(req, 'campaign_id');
      const id = account.value.ad_account_id;
      const list = filtered(ctx.store.campaigns(id), ids, (c) => c.value.campaign_id);
      const page = paginate(req, `campaigns:${id}:${ids?.join(',') ?? ''}`, list);
      return withPage('campaigns', { items: page.items.map((c) => renderCampaign(ctx, c)), next: page.next });
    },
    listAdGroups: (req) => {
      authenticate(ctx, req, SCOPES.campaignsRead);
      const campaign = requireCampaign(ctx, req, requireAccount(ctx, req));
      const ids = idFilter(req, 'ad_group_id');
      const cid = campaign.value.campaign_id;
      const list = filtered(ctx.store.adGroups(cid), ids, (g) => g.value.ad_group_id).map((g) => g.value);
      return withPage('ad_groups', paginate(req, `ad-groups:${cid}:${ids?.join(',') ?? ''}`, list));
    },
    listAds: (req) => {
      authenticate(ctx, req, SCOPES.campaignsRead);
      const group = requireAdGroup(ctx, req, requireCampaign(ctx, req, requireAccount(ctx, req)));
      const ids = idFilter(req, 'ad_id');
      const gid = group.value.ad_group_id;
      const list = filtered(ctx.store.ads(gid), ids, (a) => a.value.ad_id).map((a) => a.value);
      return withPage('ads', paginate(req, `ads:${gid}:${ids?.join(',') ?? ''}`, list));
    },
  };
}
