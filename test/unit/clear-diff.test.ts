// A clear ({} at the top of an item) against the current resource: unchanged where there is
// nothing to remove, and said as what goes; a nested {} (automatic bidding, a platform_one
// criterion) stays a value, compared as before.
import { describe, expect, it } from 'vitest';
import { describeChanges, isUnchanged, showChanges } from '../../src/bulk/changes/diff.js';

const group = {
  ad_group_id: 'g1',
  bidding: { manual: { bid_amount: { amount_e5: '50000', currency_code: 'USD' } } },
  targeting: {
    negation: false,
    operator: 'OR',
    criteria: [{ keyword_targeting: { keywords: ['pizza'], match_type: 'MATCH_TYPE_EXACT' } }, { platform_one: {} }],
  },
  dayparting_schedule: {
    dayparting_day_schedule: [
      { intervals: [{ start_time: { hour: 11, minute: 0 }, end_time: { hour: 14, minute: 30 } }] },
      ...Array(6).fill({ intervals: [] }),
    ],
  },
};

describe('a clear against the current resource', () => {
  it('is unchanged only where the field is absent; {} inside a field is a value', () => {
    expect(isUnchanged({ ad_group_id: 'g1', budget: {} }, group, 'ad_group_id')).toBe(true);
    expect(isUnchanged({ ad_group_id: 'g1', targeting: {} }, group, 'ad_group_id')).toBe(false);
    expect(isUnchanged({ ad_group_id: 'g1', bidding: { auto: {} } }, group, 'ad_group_id')).toBe(false);
    expect(describeChanges({ ad_group_id: 'g1', bidding: { auto: {} } }, group, 'ad_group_id')).toEqual(['bidding.auto: (none) -> {}']);
  });

  it('shows what goes: the targeting criteria and the dayparting, for a person; the whole object in the API terms', () => {
    const item = { ad_group_id: 'g1', targeting: {}, dayparting_schedule: {}, budget: {} };
    expect(showChanges(item, group, 'ad_group_id')).toEqual([
      'targeting: keyword_targeting OR platform_one -> (cleared)',
      'dayparting: mon=11:00-14:30 -> (cleared)',
    ]);
    expect(describeChanges({ ad_group_id: 'g1', targeting: {} }, group, 'ad_group_id')).toEqual([
      'targeting: {"negation":false,"operator":"OR","criteria":[{"keyword_targeting":{"keywords":["pizza"],"match_type":"EXACT"}},{"platform_one":{}}]} -> {}',
    ]);
  });
});
