// Random combinations of a write command's field flags -> its request (the function the
// command hands the pipeline, called here without HTTP), against the field table: every
// flag given appears at the table's API path with the value the table's parser gives its
// cell; a flag not given never changes its field (a patch: after the merge with the current
// resource, its value is the current one; a create: absent unless a documented default).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ADS_FIELDS, type AdsField, type AdsFieldResource, type FieldMode, type ParserName } from '../../src/schemas/ads-fields.js';
import { FIELD_PARSERS } from '../../src/schemas/ads-field-parsers.js';
import { applyPartial } from '../../src/bulk/changes/merge.js';
import { optionKey } from '../../src/commands/ads/flags.js';
import { adGroupCreateRequest, adGroupPatchRequest, campaignCreateRequest, campaignPatchRequest, type FlagsRequest } from '../../src/commands/ads/requests.js';
import type { CreateAdGroupsFlags, CreateCampaignsFlags } from '../../src/commands/ads/spec.js';
import { UsageError } from '../../src/base/errors.js';

type Json = Record<string, unknown>;
type Flagged = AdsField & { flag: NonNullable<AdsField['flag']> };

const NOW = Date.parse('2030-01-01T00:00:00Z');
const word = fc.stringMatching(/^[a-z]{1,8}$/);

/** A value of a flag with this parser: a new parser fails typecheck here until it has one. */
const VALUES: Record<ParserName, fc.Arbitrary<unknown>> = {
  text: fc.stringMatching(/^[A-Z][a-z]{0,10}( [a-z]{1,6})?$/),
  campaignStatus: fc.constantFrom('active', 'paused'),
  adGroupStatus: fc.constantFrom('active', 'paused'),
  decimalAmount: fc.integer({ min: 1, max: 99_999_999 }).map((cents) => (cents / 100).toFixed(2)),
  amountE5: fc.tuple(fc.constantFrom('', '0', '00'), fc.integer({ min: 1, max: 999_999_999 })).map(([zeros, n]) => `${zeros}${n}`),
  currency: fc.constantFrom('USD', 'usd'),
  budgetUnit: fc.constantFrom('daily', 'weekly', 'fixed'),
  adProduct: fc.constantFrom('listing', 'search'),
  bidding: fc.constant(true),
  time: fc.integer({ min: 0, max: 300 }).map((day) => new Date(Date.parse('2031-01-01T00:00:00Z') + day * 86_400_000).toISOString()),
  list: fc.array(word, { minLength: 1, maxLength: 3 }),
  matchType: fc.constantFrom('exact', 'broad'),
  boolean: fc.constant(true),
  presence: fc.boolean(),
  number: fc.integer({ min: 1, max: 9 }),
  dayparting: fc.array(fc.constantFrom('mon-fri=11:00-14:00', 'sat,sun=10:00-24:00', 'wed=06:15-07:45'), { minLength: 1, maxLength: 2 }),
};

function flagged(resource: AdsFieldResource, mode: FieldMode): Flagged[] {
  return (ADS_FIELDS[resource] as readonly AdsField[]).filter((f): f is Flagged => f.flag !== undefined && (f.modes ?? ['create', 'patch']).includes(mode));
}

/** The flags as commander hands them: any subset of the fields' flags (a pair's --no-x only on a patch). */
function flagsArbitrary(resource: AdsFieldResource, mode: FieldMode): fc.Arbitrary<Json> {
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const field of flagged(resource, mode)) {
    const value = field.flag.choices && field.parser !== 'bidding' ? fc.constantFrom(...field.flag.choices) : VALUES[field.parser];
    model[optionKey(field.flag.flags)] = field.parser === 'presence' && mode === 'create' ? fc.constant(true) : value;
  }
  return fc.record(model, { requiredKeys: [] }).map((flags) => consistent(resource, flags, mode));
}

/** Drops the combinations the commands refuse or ignore by design, so that each flag left must show. */
function consistent(resource: AdsFieldResource, flags: Json, mode: FieldMode): Json {
  const out = { ...flags };
  if (out.budget !== undefined) delete out.budgetE5;
  if (out.bid !== undefined) delete out.autoBid;
  // A ROAS goal is goal-based bidding: refused with a bid or automatic bidding.
  if (out.roasGoal !== undefined) {
    delete out.bid;
    delete out.autoBid;
  }
  // Ignored without keywords (a patch), refused without them (a create).
  if (out.keywords === undefined) delete out.matchType;
  // A currency alone changes nothing: it is the currency of a budget or bid given with it.
  const amount = out.budget !== undefined || out.budgetE5 !== undefined || out.bid !== undefined;
  if (!amount) delete out.currency;
  if (mode === 'create') {
    if (amount) out.currency ??= 'USD';
    // commander's defaults
    out.budgetUnit ??= 'daily';
    if (resource === 'ad_groups') out.adProduct ??= 'listing';
  }
  return out;
}

/** The cell a flag's value fills, written out here rather than taken from the code under test. */
function cellOf(field: Flagged, value: unknown): string {
  if (value === true) return field.cell ?? 'true';
  if (value === false) return 'false';
  return Array.isArray(value) ? value.join('|') : String(value);
}

/** The value at a table path; `criteria.x` is the criterion with key x. */
function valueAt(item: unknown, path: string): unknown {
  let node = item;
  for (const key of path.split('.')) {
    if (Array.isArray(node)) node = (node as Json[]).find((c) => key in c)?.[key];
    else node = node && typeof node === 'object' ? (node as Json)[key] : undefined;
  }
  return node;
}

const sameValue = (field: AdsField, at: unknown, wanted: unknown) =>
  field.parser === 'presence' ? (at !== undefined) === wanted : JSON.stringify(at) === JSON.stringify(wanted);

/** Where the field shows in an item: the first of its paths that holds a value. */
const shown = (field: AdsField, item: unknown) => field.paths.map((p) => valueAt(item, p)).find((v) => v !== undefined);

/** The resources as they are now: every field set, to values no generated flag gives. */
const CURRENT: Record<'campaigns' | 'ad_groups', Json> = {
  campaigns: {
    campaign_id: 'c1',
    name: 'Now',
    configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
    budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '700', currency_code: 'USD' } },
  },
  ad_groups: {
    ad_group_id: 'g1',
    name: 'Now',
    configured_status: 'AD_GROUP_CONFIGURED_STATUS_PAUSED',
    ad_product: 'SPONSORED_LISTING',
    budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '700', currency_code: 'USD' } },
    bidding: { manual: { bid_amount: { amount_e5: '3', currency_code: 'USD' } } },
    schedule: { start_time: '2030-06-01T00:00:00Z', end_time: '2040-01-01T00:00:00Z' },
    targeting: {
      negation: false,
      operator: 'AND',
      criteria: [{ keyword_targeting: { keywords: ['now'], match_type: 'EXACT' } }, { platform_one: {} }],
    },
    ad_subjects: { stores: { store_ids: ['store-now'] } },
    dayparting_schedule: { dayparting_day_schedule: [] },
  },
};

/** Checks one request against the table; a patch is checked as sent: merged into CURRENT. */
function checkRequest(resource: 'campaigns' | 'ad_groups', mode: FieldMode, flags: Json, request: FlagsRequest): void {
  const merged = mode === 'patch' && request.partial ? applyPartial(request.item, request.partial, CURRENT[resource]) : { item: request.item };
  if ('problem' in merged) throw new Error(`merge refused: ${JSON.stringify(merged.problem)}`);
  const sent = merged.item;
  // A create's budget unit is its default, sent only with a budget.
  const budget = flags.budget !== undefined || flags.budgetE5 !== undefined;
  const given = (field: Flagged) => flags[optionKey(field.flag.flags)] !== undefined && !(mode === 'create' && field.column === 'budget_unit' && !budget);
  const givenPaths = flagged(resource, mode)
    .filter(given)
    .flatMap((f) => f.paths);
  // Another flag given at the same place (--bid and bidding, --budget-e5 and budget): not checked as absent.
  const touched = (field: AdsField) => field.paths.some((p) => givenPaths.some((q) => p === q || p.startsWith(`${q}.`) || q.startsWith(`${p}.`)));
  for (const field of flagged(resource, mode)) {
    const value = given(field) ? flags[optionKey(field.flag.flags)] : undefined;
    if (value === undefined && touched(field)) continue;
    const name = `${field.flag.flags} in ${JSON.stringify(sent)}`;
    if (value !== undefined) {
      const cell = cellOf(field, value);
      expect(request.cells[field.column], name).toBe(cell);
      expect(sameValue(field, shown(field, sent), FIELD_PARSERS[field.parser](cell)), name).toBe(true);
    } else if (mode === 'patch') {
      // Not given: sent as it is now, or not sent at all.
      const at = shown(field, sent);
      expect(
        at === undefined || sameValue(field, at, field.parser === 'presence' ? shown(field, CURRENT[resource]) !== undefined : shown(field, CURRENT[resource])),
        name,
      ).toBe(true);
      expect(request.cells[field.column], name).toBeUndefined();
    } else if (!CREATE_DEFAULTS.has(field.column)) {
      expect(shown(field, sent), name).toBeUndefined();
      expect(request.cells[field.column], name).toBeUndefined();
    }
  }
}

/** What a create fills when its flag is not given (help: active, starting now, automatic bidding, exact match, targeting not negated, AND). */
const CREATE_DEFAULTS = new Set(['status', 'start_time', 'bidding', 'match_type', 'targeting.negation', 'targeting.operator', 'ad_product', 'budget_unit']);

const RUNS = { numRuns: 300 };

describe('flags -> request, against the field table', () => {
  it('ads ad-groups patch: every flag given is sent at its path with its parsed value; every other field stays as it is', () => {
    fc.assert(
      fc.property(flagsArbitrary('ad_groups', 'patch'), (flags) => {
        const given = Object.keys(flags).length > 0;
        const call = () => adGroupPatchRequest({ account: 'a', campaign: 'c', batchSize: 500, concurrency: 4, ...flags }, ['g1']);
        if (given) checkRequest('ad_groups', 'patch', flags, call());
        else expect(call).toThrow(UsageError);
      }),
      RUNS,
    );
  });

  it('ads ad-groups create: every flag given is in the body at its path; the rest absent unless a create default', () => {
    fc.assert(
      fc.property(flagsArbitrary('ad_groups', 'create'), fc.array(word, { minLength: 1, maxLength: 2 }), (flags, storeIds) => {
        const all: Json = { name: 'New', storeIds, ...flags };
        const request = adGroupCreateRequest({ account: 'a', campaign: 'c', batchSize: 500, concurrency: 4, ...all } as CreateAdGroupsFlags, NOW);
        // The default start is the clock's now.
        if (all.start === undefined) expect(request.item.schedule).toMatchObject({ start_time: '2030-01-01T00:00:00Z' });
        checkRequest('ad_groups', 'create', all, request);
      }),
      RUNS,
    );
  });

  it('ads campaigns patch and create: the same, for campaigns', () => {
    fc.assert(
      fc.property(flagsArbitrary('campaigns', 'patch'), (flags) => {
        const call = () => campaignPatchRequest({ account: 'a', batchSize: 500, concurrency: 4, ...flags }, ['c1']);
        if (Object.keys(flags).length) checkRequest('campaigns', 'patch', flags, call());
        else expect(call).toThrow(UsageError);
      }),
      RUNS,
    );
    fc.assert(
      fc.property(flagsArbitrary('campaigns', 'create'), (flags) => {
        const all = { name: 'New', ...flags };
        checkRequest('campaigns', 'create', all, campaignCreateRequest({ account: 'a', batchSize: 500, concurrency: 4, ...all } as CreateCampaignsFlags));
      }),
      RUNS,
    );
  });

  it('--negate-targeting and --target-operator alone are sent, with the other targeting kept (the merge must not drop them)', () => {
    const negate = adGroupPatchRequest({ account: 'a', campaign: 'c', batchSize: 500, concurrency: 4, negateTargeting: true }, ['g1']);
    const sent = applyPartial(negate.item, negate.partial!, CURRENT.ad_groups);
    expect(sent).toEqual({
      item: { ad_group_id: 'g1', targeting: { ...(CURRENT.ad_groups.targeting as Json), negation: true } },
    });
    const operator = adGroupPatchRequest({ account: 'a', campaign: 'c', batchSize: 500, concurrency: 4, targetOperator: 'OR' }, ['g1']);
    expect(applyPartial(operator.item, operator.partial!, CURRENT.ad_groups)).toEqual({
      item: { ad_group_id: 'g1', targeting: { ...(CURRENT.ad_groups.targeting as Json), operator: 'OR' } },
    });
  });
});
