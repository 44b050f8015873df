// The dry run's lines for a person: an amount and its currency are one change, shown once
// (whichever of the two comes first in the item), and the id is never a change.
import { describe, expect, it } from 'vitest';
import { showChanges } from '../../src/bulk/changes/diff.js';

const current = {
  campaign_id: 'c1',
  name: 'Old',
  configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
  budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '5000000', currency_code: 'USD' } },
};

describe('showChanges', () => {
  it('shows a new budget amount once, with its currency, beside the other changes', () => {
    const item = {
      campaign_id: 'c1',
      name: 'New',
      configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '7550000', currency_code: 'USD' } },
    };
    expect(showChanges(item, current, 'campaign_id')).toEqual(['name: Old -> New', 'status: active -> paused', 'budget: 50.00 -> 75.50 USD']);
  });

  it('a currency that comes before its amount still makes one change', () => {
    const item = { campaign_id: 'c1', budget: { total: { currency_code: 'EUR', amount_e5: '5000000' } } };
    expect(showChanges(item, current, 'campaign_id')).toEqual(['budget: 50.00 USD -> 50.00 EUR']);
  });

  it('nothing for an item that names only its id and what it already is', () => {
    expect(showChanges({ campaign_id: 'c1', name: 'Old' }, current, 'campaign_id')).toEqual([]);
  });
});
