// The ads API routes (spec 4.1), each behind fault injection.
import { adsReadHandlers } from './ads-read.js';
import { adsWriteHandlers } from './ads-write.js';
import type { SandboxContext } from './context.js';
import { withFaults } from './faults.js';
import type { Router } from './router.js';

export function registerAdsRoutes(router: Router, ctx: SandboxContext): void {
  const r = adsReadHandlers(ctx);
  const w = adsWriteHandlers(ctx);
  const f = (h: Parameters<typeof withFaults>[1]) => withFaults(ctx, h);
  const campaigns = '/v1/ads/{account_id}/campaigns';
  const adGroups = `${campaigns}/{campaign_id}/ad-groups`;
  const ads = `${adGroups}/{ad_group_id}/ads`;
  router
    .get('/v1/ads/ad-accounts', f(r.listAdAccounts!))
    .get('/v1/ads/{ad_account_id}/stores', f(r.listStores!))
    .get(campaigns, f(r.listCampaigns!))
    .post(campaigns, f(w.createCampaigns!))
    .patch(campaigns, f(w.updateCampaigns!))
    .get(adGroups, f(r.listAdGroups!))
    .post(adGroups, f(w.createAdGroups!))
    .patch(adGroups, f(w.updateAdGroups!))
    .get(ads, f(r.listAds!))
    .post(ads, f(w.createAds!));
}
