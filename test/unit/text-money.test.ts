// -o text shows money as a table does, a decimal with its currency, where CSV keeps the
// decimal and the currency in columns of their own (src/output/text.ts, views/*.ts).
import { describe, expect, it } from 'vitest';
import { viewTextLine } from '../../src/output/text.js';
import { adGroupView, campaignView } from '../../src/output/views/ads.js';
import { priceView, quoteView } from '../../src/output/views/rider.js';
import type { AdGroup, Campaign } from '../../src/schemas/ads.js';
import type { DeliveryQuote, PriceEstimate } from '../../src/schemas/rider.js';

const campaign = {
  campaign_id: 'c-1',
  name: 'Campaign 001 sushi',
  configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
  budget: { total: { amount_e5: '45500000', currency_code: 'USD' }, unit: 'BUDGET_UNIT_DAILY' },
} as unknown as Campaign;

const fields = (line: string) => line.replace(/\n$/, '').split('\t');
const csvOf = <T>(view: { columns: ReadonlyArray<{ name: string; csv: (row: T) => string | undefined }> }, row: T, name: string) =>
  view.columns.find((c) => c.name === name)!.csv(row);

describe('-o text money', () => {
  it('writes a campaign budget as 455.00 USD, never amount_e5; CSV keeps 455.00 and USD apart', () => {
    const line = fields(viewTextLine(campaignView, false)(campaign));
    expect(line).toContain('455.00 USD');
    expect(line.join('\t')).not.toContain('45500000');
    expect(csvOf(campaignView, campaign, 'budget')).toBe('455.00');
    expect(csvOf(campaignView, campaign, 'currency')).toBe('USD');
  });

  it('writes an ad group bid with its currency, and "auto" for automatic bidding', () => {
    const manual = {
      ad_group_id: 'g-1',
      name: 'Lunch',
      bidding: { manual: { bid_amount: { amount_e5: '2540000', currency_code: 'EUR' } } },
    } as unknown as AdGroup;
    const auto = { ad_group_id: 'g-2', name: 'Dinner', bidding: { auto: {} } } as unknown as AdGroup;
    expect(fields(viewTextLine(adGroupView, false)(manual))).toContain('25.40 EUR');
    expect(fields(viewTextLine(adGroupView, false)(auto))).toContain('auto');
  });

  it('writes rider estimates and delivery fees with their currency', () => {
    const estimate = {
      localized_display_name: 'Economy',
      estimate: '$8-10',
      low_estimate: 8,
      high_estimate: 10,
      currency_code: 'USD',
      surge_multiplier: 1,
      duration: 480,
      distance: 1.07,
      product_id: 'p-1',
    } as unknown as PriceEstimate;
    expect(fields(viewTextLine(priceView, false)(estimate))).toEqual(expect.arrayContaining(['8.00 USD', '10.00 USD']));
    expect(csvOf(priceView, estimate, 'low_estimate')).toBe('8');
    const quote = { id: 'dqt_1', fee: 599, currency: 'usd', dropoff_eta: '', expires: '' } as unknown as DeliveryQuote;
    expect(fields(viewTextLine(quoteView, false)(quote))[1]).toBe('5.99 USD');
    expect(csvOf(quoteView, quote, 'fee')).toBe('5.99');
  });
});
