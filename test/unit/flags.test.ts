import { describe, expect, it } from 'vitest';
import { budgetFromFlags, daypartingFromFlags } from '../../src/commands/ads/flags.js';
import { UsageError } from '../../src/errors.js';

describe('ads flags -> body', () => {
  it('builds a 7-day dayparting schedule, Monday first', () => {
    const { dayparting_day_schedule: week } = daypartingFromFlags(['mon-wed=06:00-10:00', 'sun=18:00-24:00', 'wed=12:00-13:00']);
    expect(week.map((d) => d.intervals.length)).toEqual([1, 1, 2, 0, 0, 0, 1]);
    expect(week[6]!.intervals[0]).toEqual({ start_time: { hour: 18, minute: 0 }, end_time: { hour: 24, minute: 0 } });
  });

  it('names the flag on bad input', () => {
    expect(() => daypartingFromFlags(['funday=06:00-10:00'])).toThrow(/--daypart: "funday"/);
    expect(() => budgetFromFlags({ budget: '1', budgetE5: '100000', currency: 'USD' })).toThrow(UsageError);
    expect(() => budgetFromFlags({ budgetE5: '1.5', currency: 'USD' })).toThrow(/--budget-e5/);
  });

  it('converts budgets exactly with the unit', () => {
    expect(budgetFromFlags({ budget: '0.1', currency: 'eur', budgetUnit: 'weekly' })).toEqual({ unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '10000', currency_code: 'EUR' } });
    expect(budgetFromFlags({})).toBeUndefined();
  });
});
