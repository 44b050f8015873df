// A `[]` cell in a budget, targeting or dayparting column clears that field (sent as `{}`, as
// the OpenAPI's text says); an empty cell leaves it unchanged. Only a patch clears, and a row
// that clears a field sets none of that field's other columns.
import { describe, expect, it } from 'vitest';
import { mapRow } from '../../src/bulk/input/row-mapping.js';

describe('[] cells', () => {
  it('clear a campaign budget; an empty cell leaves it', () => {
    expect(mapRow('campaigns', 'patch', { campaign_id: 'c1', budget: '[]', currency: '', budget_unit: '' })).toEqual({
      ok: true,
      item: { campaign_id: 'c1', budget: {} },
    });
    expect(mapRow('campaigns', 'patch', { campaign_id: 'c1', name: 'N', budget: '' })).toEqual({ ok: true, item: { name: 'N', campaign_id: 'c1' } });
  });

  it("clear an ad group's targeting (from any targeting column) and dayparting", () => {
    expect(mapRow('ad_groups', 'patch', { ad_group_id: 'g1', keywords: '[]', match_type: '', daypart: '[]' })).toEqual({
      ok: true,
      item: { ad_group_id: 'g1', targeting: {}, dayparting_schedule: {} },
    });
    expect(mapRow('ad_groups', 'patch', { ad_group_id: 'g1', platform_one: '[]', 'targeting.operator': '[]' })).toMatchObject({
      ok: true,
      item: { ad_group_id: 'g1', targeting: {} },
    });
  });

  it('a row that clears a field and sets another column of it, or a create, is a problem naming the column', () => {
    expect(mapRow('campaigns', 'patch', { campaign_id: 'c1', budget: '[]', budget_unit: 'daily' })).toEqual({
      ok: false,
      problem: { field: 'budget_unit', message: 'cannot be set in a row that clears budget ([]): leave it empty' },
    });
    expect(mapRow('ad_groups', 'patch', { ad_group_id: 'g1', keywords: 'pizza', platform_one: '[]' })).toMatchObject({
      ok: false,
      problem: { field: 'keywords' },
    });
    expect(mapRow('campaigns', 'create', { name: 'N', status: 'active', budget: '[]' })).toEqual({
      ok: false,
      problem: { field: 'budget', message: '[] removes a field, which only a patch can do (leave the cell empty)' },
    });
  });
});
