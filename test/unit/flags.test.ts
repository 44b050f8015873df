import { describe, expect, it } from 'vitest';
import { flagProblem, flagsRow } from '../../src/commands/ads/flags.js';
import { parseDayparting } from '../../src/schemas/dayparting.js';
import { mapRow } from '../../src/bulk/input/row-mapping.js';
import { applyPartial } from '../../src/bulk/changes/merge.js';
import { adGroupCreateRequest, adGroupPatchRequest } from '../../src/commands/ads/requests.js';

describe('ads flags -> one row -> the one mapping', () => {
  it('builds a 7-day dayparting schedule, Monday first', () => {
    const { dayparting_day_schedule: week } = parseDayparting(['mon-wed=06:00-10:00', 'sun=18:00-24:00', 'wed=12:00-13:00']);
    expect(week.map((d) => d.intervals.length)).toEqual([1, 1, 2, 0, 0, 0, 1]);
    expect(week[6]!.intervals[0]).toEqual({ start_time: { hour: 18, minute: 0 }, end_time: { hour: 24, minute: 0 } });
    expect(() => parseDayparting(['funday=06:00-10:00'])).toThrow(/"funday"/);
  });

  it('fills only the cells of the flags given, and names the flag of a problem', () => {
    expect(flagsRow('campaigns', 'patch', { budget: '400', currency: 'USD' }, 'c1')).toEqual({ campaign_id: 'c1', budget: '400', currency: 'USD' });
    const bad = mapRow('campaigns', 'patch', flagsRow('campaigns', 'patch', { budgetE5: '1.5', currency: 'USD' }, 'c1'));
    expect(bad.ok ? '' : flagProblem(bad.problem.field, bad.problem.message)).toMatch(/^--budget-e5: /);
  });

  it('a patch of the amount keeps the unit; of the unit keeps the amount; an end keeps the start', () => {
    const current = {
      campaign_id: 'c1',
      budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '37600000', currency_code: 'USD' } },
      schedule: { start_time: '2027-01-01T00:00:00Z' },
    };
    const amount = mapRow('campaigns', 'patch', flagsRow('campaigns', 'patch', { budget: '400', currency: 'USD' }, 'c1'));
    expect(amount.ok && applyPartial(amount.item, amount.partial!, current)).toEqual({
      item: { campaign_id: 'c1', budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '40000000', currency_code: 'USD' } } },
    });
    const unit = mapRow('campaigns', 'patch', flagsRow('campaigns', 'patch', { budgetUnit: 'daily' }, 'c1'));
    expect(unit.ok && applyPartial(unit.item, unit.partial!, current)).toEqual({
      item: { campaign_id: 'c1', budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '37600000', currency_code: 'USD' } } },
    });
    const end = mapRow('ad_groups', 'patch', flagsRow('ad_groups', 'patch', { end: '2027-03-01T00:00:00Z' }, 'g1'));
    expect(end.ok && applyPartial(end.item, end.partial!, current)).toEqual({
      item: { ad_group_id: 'g1', schedule: { start_time: '2027-01-01T00:00:00Z', end_time: '2027-03-01T00:00:00Z' } },
    });
  });

  it('keywords replace only the keyword criterion; --no-platform-one removes only that one; the operator stays', () => {
    const current = {
      targeting: {
        negation: false,
        operator: 'OR',
        criteria: [{ keyword_targeting: { keywords: ['a'], match_type: 'MATCH_TYPE_BROAD' } }, { platform_one: {} }, { new_to_brand: {} }],
      },
    };
    const keywords = mapRow('ad_groups', 'patch', flagsRow('ad_groups', 'patch', { keywords: ['pizza', 'pasta'] }, 'g1'));
    expect(keywords.ok && applyPartial(keywords.item, keywords.partial!, current)).toEqual({
      item: {
        ad_group_id: 'g1',
        targeting: {
          negation: false,
          operator: 'OR',
          criteria: [{ keyword_targeting: { keywords: ['pizza', 'pasta'], match_type: 'EXACT' } }, { platform_one: {} }, { new_to_brand: {} }],
        },
      },
    });
    const off = mapRow('ad_groups', 'patch', flagsRow('ad_groups', 'patch', { platformOne: false }, 'g1'));
    expect(off.ok && applyPartial(off.item, off.partial!, current)).toEqual({
      item: {
        ad_group_id: 'g1',
        targeting: { negation: false, operator: 'OR', criteria: [{ keyword_targeting: { keywords: ['a'], match_type: 'BROAD' } }, { new_to_brand: {} }] },
      },
    });
  });

  it('a ROAS goal column alone creates goal-based bidding (not auto as well); with a bid it is refused, naming the column', () => {
    const row = { name: 'Goal', status: 'active', store_ids: 's1', start_time: '2030-01-01T00:00:00Z', 'bidding.goal_based.roas_goal': '4.5' };
    const created = mapRow('ad_groups', 'create', row);
    expect(created.ok && created.item.bidding).toEqual({ goal_based: { roas_goal: 4.5 } });
    const both = mapRow('ad_groups', 'create', { ...row, bid: '0.50', currency: 'USD' });
    expect(both.ok ? '' : both.problem.field).toBe('bidding.goal_based.roas_goal');
  });

  it('--roas-goal sets goal-based bidding on a create and a patch; with --bid it is refused, naming --roas-goal', () => {
    const flags = { account: 'a', campaign: 'c', batchSize: 500, concurrency: 4 };
    expect(adGroupPatchRequest({ ...flags, roasGoal: '4.5' }, ['g1']).item).toEqual({ ad_group_id: 'g1', bidding: { goal_based: { roas_goal: 4.5 } } });
    const created = adGroupCreateRequest({ ...flags, adProduct: 'listing', budgetUnit: 'daily', name: 'Goal', storeIds: ['s1'], roasGoal: '3' }, 0);
    expect(created.item.bidding).toEqual({ goal_based: { roas_goal: 3 } });
    expect(() => adGroupPatchRequest({ ...flags, roasGoal: '4.5', bid: '0.50', currency: 'USD' }, ['g1'])).toThrow(
      /^--roas-goal: cannot be used with --bid or --auto-bid/,
    );
  });
});
