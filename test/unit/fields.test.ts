// The ads field tables (src/schemas/ads-fields.ts) against what is derived from them: the
// command specs' flags, the CSV columns, the parsers, the flag named for a column, and the
// flags types (checked by `npm run typecheck`, which covers test/).
import { describe, expect, expectTypeOf, it } from 'vitest';
import { ADS_FIELDS, flagsOf, type AdsField, type AdsFieldResource, type FieldMode, type ParserName } from '../../src/schemas/ads-fields.js';
import { FIELD_PARSERS } from '../../src/schemas/ads-field-parsers.js';
import { columnsHelp, unknownColumns } from '../../src/bulk/input/csv-columns.js';
import { adsSpec, type CreateAdGroupsFlags, type PatchAdGroupsFlags, type PatchCampaignsFlags } from '../../src/commands/ads/spec.js';
import type { CommandSpec } from '../../src/commands/spec.js';
import { fieldFlagKeys, flagProblem, optionKey } from '../../src/commands/ads/flags.js';
import { adGroupView, adView, campaignView } from '../../src/output/views/ads.js';
import { adDetail, adGroupDetail, campaignDetail } from '../../src/output/views/ads-detail.js';
import type { Ad, AdGroup, Campaign } from '../../src/schemas/ads.js';

const RESOURCES: Array<[AdsFieldResource, string]> = [
  ['campaigns', 'campaigns'],
  ['ad_groups', 'ad-groups'],
  ['ads', 'ads'],
];
const table = (resource: AdsFieldResource): readonly AdsField[] => ADS_FIELDS[resource];

function commandSpec(group: string, name: string): CommandSpec {
  const found = adsSpec.subcommands?.find((g) => g.name === group)?.subcommands?.find((c) => c.name === name);
  if (!found) throw new Error(`no ads ${group} ${name}`);
  return found;
}

/** A cell each parser takes: a new parser name fails typecheck here until it has one. */
const SAMPLE: Record<ParserName, [string, unknown]> = {
  text: ['Lunch', 'Lunch'],
  campaignStatus: ['paused', 'CAMPAIGN_CONFIGURED_STATUS_PAUSED'],
  adGroupStatus: ['active', 'AD_GROUP_CONFIGURED_STATUS_ACTIVE'],
  decimalAmount: ['12.34', '1234000'],
  amountE5: ['001234000', '1234000'],
  currency: ['usd', 'USD'],
  budgetUnit: ['weekly', 'BUDGET_UNIT_WEEKLY'],
  adProduct: ['search', 'SPONSORED_SEARCH'],
  bidding: ['auto', { auto: {} }],
  time: ['2030-01-01T00:00:00Z', '2030-01-01T00:00:00Z'],
  list: ['a| b |', ['a', 'b']],
  matchType: ['broad', 'BROAD'],
  boolean: ['yes', true],
  presence: ['false', false],
  number: ['2.5', 2.5],
  dayparting: [
    'sun=10:00-24:00',
    {
      dayparting_day_schedule: [[], [], [], [], [], [], [{ start_time: { hour: 10, minute: 0 }, end_time: { hour: 24, minute: 0 } }]].map((intervals) => ({
        intervals,
      })),
    },
  ],
};

describe('the ads field tables', () => {
  it.each(RESOURCES)('%s: each create and patch command takes exactly its fields’ flags, the pairs’ --no-x on patch', (resource, group) => {
    for (const mode of ['create', 'patch'] as FieldMode[]) {
      const flags = (commandSpec(group, mode).options ?? []).map((o) => o.flags);
      for (const flag of flagsOf(table(resource), mode) as readonly { flags: string }[]) expect(flags, `${group} ${mode}`).toContain(flag.flags);
      for (const field of table(resource)) {
        if (!field.flag) continue;
        const takes = (field.modes ?? ['create', 'patch']).includes(mode);
        expect(flags.includes(field.flag.flags), `${group} ${mode} ${field.flag.flags}`).toBe(takes);
        if (field.negated) expect(flags.includes(field.negated.flags), `${group} ${mode} ${field.negated.flags}`).toBe(mode === 'patch');
      }
    }
  });

  it.each(RESOURCES)('%s: every column is accepted, documented or listed as a dotted path, and nothing else is', (resource) => {
    const help = columnsHelp(resource);
    for (const { column, help: line } of table(resource)) {
      expect(unknownColumns(resource, [column])).toEqual([]);
      if (line !== undefined) expect(help).toContain(`  ${column} `);
      else expect(help.split('\n').at(-1)).toContain(column);
    }
    expect(unknownColumns(resource, ['no_such_column'])).toEqual(['no_such_column']);
    expect(new Set(table(resource).map((f) => f.column)).size).toBe(table(resource).length);
  });

  it('every parser a table names reads its sample cell', () => {
    for (const [name, [cell, value]] of Object.entries(SAMPLE)) expect(FIELD_PARSERS[name as ParserName](cell), name).toEqual(value);
    for (const resource of Object.keys(ADS_FIELDS) as AdsFieldResource[])
      for (const field of table(resource)) expect(FIELD_PARSERS[field.parser], field.column).toBeTypeOf('function');
  });

  it('a problem in a column names the flag that fills it', () => {
    for (const resource of Object.keys(ADS_FIELDS) as AdsFieldResource[]) {
      for (const field of table(resource)) {
        if (!field.flag) continue;
        expect(flagProblem(field.column, 'is wrong')).toBe(`${/--[a-z0-9-]+/.exec(field.flag.flags)![0]}: is wrong`);
      }
    }
    expect(flagProblem('currency', 'currency is required with budget')).toBe('--currency is required with --budget');
  });

  it('the field flags that conflict with --from-csv: a create cannot tell a defaulted flag was given', () => {
    expect(fieldFlagKeys('ad_groups', 'create')).not.toContain('budgetUnit');
    expect(fieldFlagKeys('ad_groups', 'create')).not.toContain('adProduct');
    expect(fieldFlagKeys('ad_groups', 'patch')).toContain('budgetUnit');
    expect(fieldFlagKeys('ad_groups', 'patch')).toContain('negateTargeting');
    expect(optionKey('--no-platform-one')).toBe('platformOne');
  });

  it('types a --x/--no-x pair as an optional boolean (undefined: unchanged), a lone flag as optional, a default as present', () => {
    expectTypeOf<PatchAdGroupsFlags['platformOne']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<{ platformOne?: boolean }>().toExtend<Pick<PatchAdGroupsFlags, 'platformOne'>>();
    expectTypeOf<PatchAdGroupsFlags['negateTargeting']>().toEqualTypeOf<boolean | undefined>();
    expectTypeOf<CreateAdGroupsFlags['budgetUnit']>().toEqualTypeOf<'daily' | 'weekly' | 'fixed'>();
    expectTypeOf<PatchCampaignsFlags['budgetUnit']>().toEqualTypeOf<'daily' | 'weekly' | 'fixed' | undefined>();
    expectTypeOf<CreateAdGroupsFlags>().not.toHaveProperty('noPlatformOne');
    expect(true).toBe(true);
  });

  it('list shows each field with a list header under it, by its CSV name; view shows every field label', () => {
    const views = { campaigns: campaignView, ad_groups: adGroupView, ads: adView };
    const details = {
      campaigns: campaignDetail({} as Campaign),
      ad_groups: adGroupDetail({} as AdGroup),
      ads: adDetail({} as Ad),
    };
    for (const [resource] of RESOURCES) {
      const columns = views[resource].columns.map((c) => `${c.header}=${c.name}`);
      const labels = details[resource].map(([label]) => label);
      for (const field of table(resource)) {
        if (field.list !== undefined) expect(columns, resource).toContain(`${field.list}=${field.column}`);
        if (field.view !== undefined) expect(labels, resource).toContain(field.view);
      }
    }
  });
});
