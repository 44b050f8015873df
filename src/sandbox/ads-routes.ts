// The ads API routes (spec 4.1), each behind fault injection.
import { adsReadHandlers } from './ads-read.js';
import { adsWriteHandlers } from './ads-write.js';
import type { SandboxContext } from './context.js';
import { faultyRoutes } from './faults.js';
import type { Router } from './router.js';

export function registerAdsRoutes(router: Router, ctx: SandboxContext): void {
  const r = adsReadHandlers(ctx);
  const w = adsWriteHandlers(ctx);
  const campaigns = '/v1/ads/{account_id}/campaigns';
  const adGroups = `${campaigns}/{campaign_id}/ad-groups`;
  const ads = `${adGroups}/{ad_group_id}/ads`;
  faultyRoutes(router, ctx)
    .get('/v1/ads/ad-accounts', r.listAdAccounts!)
    .get('/v1/ads/{ad_account_id}/stores', r.listStores!)
    .get(campaigns, r.listCampaigns!)
    .post(campaigns, w.createCampaigns!)
    .patch(campaigns, w.updateCampaigns!)
    .get(adGroups, r.listAdGroups!)
    .post(adGroups, w.createAdGroups!)
    .patch(adGroups, w.updateAdGroups!)
    .get(ads, r.listAds!)
    .post(ads, w.createAds!)
    .patch(ads, w.updateAds!);
}
