// Generated campaigns for the round-trip properties (fast-check): any name a person may
// type, either status, any budget unit, budgets in whole cents up to $100,000; and how
// such campaigns are created over raw HTTP, in one request.
import fc from 'fast-check';
import { api } from './sandbox.js';

export interface GeneratedCampaign {
  name: string;
  status: string;
  unit: string;
  /** amount_e5, as text. */
  amount: string;
}

export const campaignArbs = {
  name: fc.string({ minLength: 1, maxLength: 30 }).filter((s) => s.trim().length > 0 && !/[\u0000-\u001f]/.test(s)),
  status: fc.constantFrom('CAMPAIGN_CONFIGURED_STATUS_ACTIVE', 'CAMPAIGN_CONFIGURED_STATUS_PAUSED'),
  unit: fc.constantFrom('BUDGET_UNIT_DAILY', 'BUDGET_UNIT_WEEKLY', 'BUDGET_UNIT_FIXED'),
  amount: fc.integer({ min: 1, max: 10_000_000 }).map((n) => String(n * 1000)),
};

export const campaignArb: fc.Arbitrary<GeneratedCampaign> = fc.record(campaignArbs);

/** Creates the campaigns in `currency` and returns their ids, in order. */
export async function createCampaigns(
  url: string,
  token: string,
  account: string,
  campaigns: readonly GeneratedCampaign[],
  currency = 'USD',
): Promise<string[]> {
  const created = await api(url, token, 'POST', `/v1/ads/${account}/campaigns`, {
    campaigns: campaigns.map((c) => ({
      name: c.name,
      configured_status: c.status,
      budget: { unit: c.unit, total: { amount_e5: c.amount, currency_code: currency } },
    })),
  });
  return (created.body.results as Array<{ success: { id: string } }>).map((r) => r.success.id);
}
