// The pure parts of accessible mode and colour: where the mode comes from, when colours are
// shown, and a table's rows as `Header: value` records.
import { describe, expect, it } from 'vitest';
import { accessibleAsked, accessibleOf, accessibleOfProfile } from '../../src/config/accessible.js';
import { colourWanted } from '../../src/output/colour.js';
import { renderRecords, sentenceCase } from '../../src/output/records.js';
import type { View } from '../../src/output/columns.js';

describe('accessible mode', () => {
  it('is asked for by the flag, else PLATFORM_ACCESSIBLE (which may turn the profile off), else the profile', () => {
    expect(accessibleAsked(true, { PLATFORM_ACCESSIBLE: '0' })).toBe(true);
    expect(accessibleAsked(undefined, { PLATFORM_ACCESSIBLE: '1' })).toBe(true);
    expect(accessibleAsked(undefined, { PLATFORM_ACCESSIBLE: 'yes' })).toBe(true);
    for (const off of ['0', 'false', 'No', 'off']) expect(accessibleAsked(undefined, { PLATFORM_ACCESSIBLE: off })).toBe(false);
    expect(accessibleAsked(undefined, { PLATFORM_ACCESSIBLE: '' })).toBeUndefined();
    expect(accessibleAsked(false, {})).toBeUndefined();
    expect(accessibleOfProfile({ accessible: 'true' })).toBe(true);
    expect(accessibleOfProfile({ accessible: 'false' })).toBe(false);
    expect(accessibleOfProfile(undefined)).toBe(false);
    expect(accessibleOf({}, { accessible: 'true' })).toEqual({ value: 'true', source: { kind: 'profile', name: 'accessible' } });
    expect(accessibleOf({ PLATFORM_ACCESSIBLE: '0' }, { accessible: 'true' })).toEqual({
      value: 'false',
      source: { kind: 'env', name: 'PLATFORM_ACCESSIBLE' },
    });
  });

  it('shows a table as records: sentence-case headers, every value whole, (none) for an empty one, a blank line between', () => {
    const view: View<{ id: string; name: string; budget?: string }> = {
      noun: 'campaigns',
      columns: [
        { header: 'CAMPAIGN ID', name: 'campaign_id', csv: (r) => r.id, kind: 'id' },
        { header: 'NAME', name: 'name', csv: (r) => r.name, kind: 'text' },
        { header: 'BUDGET', name: 'budget', csv: (r) => r.budget, table: (r) => (r.budget ? `${r.budget} USD` : undefined) },
        { header: 'CURRENCY', name: 'currency', csv: () => 'USD', csvOnly: true },
      ],
    };
    const rows = [
      { id: 'c1', name: 'Spring promo with a long name that a table would cut', budget: '50.00' },
      { id: 'c2', name: 'Autumn' },
    ];
    expect(renderRecords(view, rows)).toBe(
      'Campaign ID: c1\nName: Spring promo with a long name that a table would cut\nBudget: 50.00 USD\n\nCampaign ID: c2\nName: Autumn\nBudget: (none)\n',
    );
    expect(renderRecords(view, rows.slice(1), { wide: true })).toContain('Currency: USD\n');
    expect(sentenceCase('AD GROUPS')).toBe('Ad groups');
    expect(sentenceCase('REPORT URL')).toBe('Report URL');
    expect(sentenceCase('Already mixed')).toBe('Already mixed');
  });
});

describe('colour', () => {
  it('follows --no-color, NO_COLOR, FORCE_COLOR, CLICOLOR_FORCE and TERM=dumb', () => {
    expect(colourWanted(true, {}, true)).toBe(true);
    expect(colourWanted(true, {}, false)).toBe(false);
    expect(colourWanted(false, { FORCE_COLOR: '1' }, true)).toBe(false);
    expect(colourWanted(true, { NO_COLOR: '1', FORCE_COLOR: '1' }, true)).toBe(false);
    // no-color.org: set and not empty.
    expect(colourWanted(true, { NO_COLOR: '' }, true)).toBe(true);
    expect(colourWanted(true, { TERM: 'dumb' }, true)).toBe(false);
    expect(colourWanted(true, { TERM: 'dumb', FORCE_COLOR: '1' }, true)).toBe(true);
    expect(colourWanted(true, { FORCE_COLOR: '1' }, false)).toBe(true);
    expect(colourWanted(true, { FORCE_COLOR: '0' }, true)).toBe(false);
    expect(colourWanted(true, { FORCE_COLOR: 'false', CLICOLOR_FORCE: '1' }, true)).toBe(false);
    expect(colourWanted(true, { CLICOLOR_FORCE: '1' }, false)).toBe(true);
    expect(colourWanted(true, { CLICOLOR_FORCE: '0' }, false)).toBe(false);
  });
});
