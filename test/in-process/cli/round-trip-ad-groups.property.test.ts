// Round trips as a property (fast-check), for generated ad groups (both products; auto,
// manual and goal-based bidding; any mix of criteria, operator and negation; dayparting;
// with and without a budget or an end) and their ads: `list -o csv` fed to
// `patch --from-csv` reports every row unchanged and writes nothing; editing one cell of one
// row changes exactly that field of that resource, checked over raw HTTP.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';
import { oneMore } from '../../helpers/decimal.js';
import { api, getToken } from '../../helpers/sandbox.js';
import { scaled } from '../../helpers/time-scale.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let token: string;
let stores: string[];

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser({ campaigns: 0 }));
  token = await getToken(sandbox.url);
  stores = ((await api(sandbox.url, token, 'GET', `/v1/ads/${account}/stores`)).body.stores as Array<{ id: string }>).map((s) => s.id);
});
afterAll(() => sandbox.close());

type Json = Record<string, any>;

const text = fc.string({ minLength: 1, maxLength: 24 }).filter((s) => s.trim().length > 0 && !/[\u0000-\u001f]/.test(s));
const at = (hour: number, minute = 0) => ({ hour, minute });
/** A day's intervals, in order and apart, as a person would set them. */
const dayArb = fc.constantFrom(
  [],
  [{ start_time: at(9), end_time: at(12) }],
  [
    { start_time: at(11), end_time: at(14) },
    { start_time: at(17), end_time: at(22, 45) },
  ],
  [{ start_time: at(0), end_time: at(24) }],
  [{ start_time: at(6, 15), end_time: at(6, 30) }],
);
const criterionArb = fc.constantFrom('keyword_targeting', 'platform_one', 'new_to_brand', 'new_to_location', 'existing_to_location', 'lapsed_to_location');
const keywordsArb = fc.uniqueArray(fc.constantFrom('sushi', 'ramen', 'late night', 'pizza', 'family meal', 'vegan'), { minLength: 1, maxLength: 3 });

const adGroupArb = fc.record(
  {
    name: text,
    ad_product: fc.constantFrom('SPONSORED_LISTING', 'SPONSORED_SEARCH'),
    configured_status: fc.constantFrom('AD_GROUP_CONFIGURED_STATUS_ACTIVE', 'AD_GROUP_CONFIGURED_STATUS_PAUSED'),
    budget: fc.record({
      unit: fc.constantFrom('BUDGET_UNIT_DAILY', 'BUDGET_UNIT_WEEKLY'),
      total: fc.record({ amount_e5: fc.integer({ min: 1, max: 100_000 }).map((n) => String(n * 1000)), currency_code: fc.constant('USD') }),
    }),
    schedule: fc
      .record({ month: fc.integer({ min: 1, max: 12 }), end: fc.boolean() })
      .map(({ month, end }) => ({ start_time: `2030-${String(month).padStart(2, '0')}-01T00:00:00Z`, ...(end ? { end_time: '2031-06-01T00:00:00Z' } : {}) })),
    bidding: fc.oneof(
      fc.constant({ auto: {} }),
      fc.integer({ min: 1, max: 5_000 }).map((n) => ({ manual: { bid_amount: { amount_e5: String(n * 1000), currency_code: 'USD' } } })),
      fc.integer({ min: 1, max: 80 }).map((n) => ({ goal_based: { roas_goal: n / 4 } })),
    ),
    targeting: fc.record({
      negation: fc.boolean(),
      operator: fc.constantFrom('AND', 'OR'),
      criteria: fc.uniqueArray(criterionArb, { maxLength: 4 }).chain((kinds) =>
        fc
          .tuple(...kinds.map((kind) => (kind === 'keyword_targeting' ? keywordsArb : fc.constant([] as string[]))), fc.constantFrom('EXACT', 'BROAD'))
          .map((parts) => {
            const matchType = parts[kinds.length] as string;
            return kinds.map((kind, i) =>
              kind === 'keyword_targeting' ? { keyword_targeting: { keywords: parts[i], match_type: matchType } } : { [kind]: {} },
            );
          }),
      ),
    }),
    dayparting_schedule: fc
      .array(dayArb, { minLength: 7, maxLength: 7 })
      .map((days) => ({ dayparting_day_schedule: days.map((intervals) => ({ intervals })) })),
    stores: fc.integer({ min: 1, max: 2 }),
  },
  { requiredKeys: ['name', 'ad_product', 'configured_status', 'schedule', 'bidding', 'stores'] },
);

const campaignsPath = () => `/v1/ads/${account}/campaigns`;

async function newCampaign(): Promise<string> {
  const created = await api(sandbox.url, token, 'POST', campaignsPath(), {
    campaigns: [
      {
        name: 'Round trip',
        configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
        budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '100000000', currency_code: 'USD' } },
      },
    ],
  });
  return created.body.results[0].success.id as string;
}

/** Every field of every resource in a collection, by id, as the API holds them (updated_at aside: a write's own mark). */
async function readAll(path: string, key: string, idField: string): Promise<Map<string, Json>> {
  const items = (await api(sandbox.url, token, 'GET', `${path}?page_limit=2000`)).body[key] as Json[];
  return new Map(items.map(({ updated_at: _u, ...rest }) => [rest[idField] as string, rest]));
}

/** A batch create that succeeded for every item. */
function expectCreated(created: { status: number; body: Json }): void {
  expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
  expect(
    (created.body.results as Json[]).every((r) => r.success),
    JSON.stringify(created.body),
  ).toBe(true);
}

/** `patch --from-csv` of these rows; the result of each row. */
async function patchCsv(resource: string, scope: string[], csv: string): Promise<string[]> {
  const run = await user.run(['ads', resource, 'patch', '--account', account, ...scope, '--from-csv', '-', '-o', 'ndjson'], { stdin: csv });
  expect(run.code, run.stderr).toBe(0);
  return run.stdout
    .trim()
    .split('\n')
    .map((l) => (JSON.parse(l) as { result: string }).result);
}

/** The listing round-trips unchanged with no write; returns its rows. */
async function unchangedRoundTrip(resource: string, scope: string[], patchScope: string[]): Promise<Array<Record<string, string>>> {
  const listing = await user.run(['ads', resource, 'list', '--account', account, ...scope, '--all', '-o', 'csv']);
  expect(listing.code, listing.stderr).toBe(0);
  const writes = sandbox.stats.writesById.size;
  const rows = parse<Record<string, string>>(listing.stdout, { columns: true });
  expect(await patchCsv(resource, patchScope, listing.stdout)).toEqual(rows.map(() => 'unchanged'));
  expect(sandbox.stats.writesById.size).toBe(writes);
  return rows;
}

const edits = ['name', 'status', 'end_time', 'daypart', 'keywords', 'bid', 'budget'] as const;
type Edit = (typeof edits)[number];

/** The one cell edited (a column the row has no value in falls back to its name), and the field it must change to. */
function edit(row: Record<string, string>, column: Edit, before: Json): { column: Edit; expected: Json } {
  if (column === 'keywords' && !row.keywords) column = 'name';
  if (column === 'bid' && !row.bid) column = 'name';
  if (column === 'budget' && !row.budget) column = 'name';
  const expected = structuredClone(before);
  switch (column) {
    case 'name':
      row.name = `${row.name} (edited)`;
      expected.name = row.name;
      break;
    case 'status':
      row.status = row.status === 'active' ? 'paused' : 'active';
      expected.configured_status = `AD_GROUP_CONFIGURED_STATUS_${row.status.toUpperCase()}`;
      break;
    case 'end_time':
      row.end_time = '2032-01-01T00:00:00Z';
      expected.schedule = { ...before.schedule, end_time: row.end_time };
      break;
    case 'daypart':
      row.daypart = 'tue=08:00-09:00';
      expected.dayparting_schedule = {
        dayparting_day_schedule: Array.from({ length: 7 }, (_, day) => ({ intervals: day === 1 ? [{ start_time: at(8), end_time: at(9) }] : [] })),
      };
      break;
    case 'keywords':
      row.keywords = 'edited|words';
      expected.targeting.criteria = before.targeting.criteria.map((c: Json) =>
        c.keyword_targeting ? { keyword_targeting: { ...c.keyword_targeting, keywords: ['edited', 'words'] } } : c,
      );
      break;
    case 'bid':
      row.bid = oneMore(row.bid!);
      expected.bidding = {
        manual: { bid_amount: { ...before.bidding.manual.bid_amount, amount_e5: String(BigInt(before.bidding.manual.bid_amount.amount_e5) + 100_000n) } },
      };
      break;
    case 'budget':
      row.budget = oneMore(row.budget!);
      expected.budget = { ...before.budget, total: { ...before.budget.total, amount_e5: String(BigInt(before.budget.total.amount_e5) + 100_000n) } };
      break;
  }
  return { column, expected };
}

describe('ad groups: list -o csv -> patch --from-csv', () => {
  it('reports every row unchanged; one edited cell changes exactly that field', { timeout: scaled(180_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(adGroupArb, { minLength: 1, maxLength: 4 }), fc.nat(), fc.constantFrom(...edits), async (groups, which, column) => {
        const campaignId = await newCampaign();
        const groupsPath = `${campaignsPath()}/${campaignId}/ad-groups`;
        const created = await api(sandbox.url, token, 'POST', groupsPath, {
          ad_groups: groups.map(({ stores: count, ...group }) => ({ ...group, ad_subjects: { stores: { store_ids: stores.slice(0, count) } } })),
        });
        expectCreated(created);

        const rows = await unchangedRoundTrip('ad-groups', ['--campaign', campaignId], []);
        const before = await readAll(groupsPath, 'ad_groups', 'ad_group_id');
        const row = rows[which % rows.length]!;
        const { column: edited, expected } = edit(row, column, before.get(row.ad_group_id!)!);
        expect(await patchCsv('ad-groups', [], stringify(rows, { header: true }))).toEqual(rows.map((r) => (r === row ? 'ok' : 'unchanged')));
        const after = await readAll(groupsPath, 'ad_groups', 'ad_group_id');
        for (const [id, group] of before) expect(after.get(id), `${edited} of ${id}`).toEqual(id === row.ad_group_id ? expected : group);
      }),
      { numRuns: 25 },
    );
  });
});

describe('ads: list -o csv -> patch --from-csv', () => {
  it('reports every row unchanged; one edited name changes exactly that ad', { timeout: scaled(120_000) }, async () => {
    const campaignId = await newCampaign();
    const groupsPath = `${campaignsPath()}/${campaignId}/ad-groups`;
    const group = await api(sandbox.url, token, 'POST', groupsPath, {
      ad_groups: [
        {
          name: 'Ads round trip',
          ad_product: 'SPONSORED_LISTING',
          configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
          schedule: { start_time: '2030-01-01T00:00:00Z' },
          bidding: { auto: {} },
          ad_subjects: { stores: { store_ids: [stores[0]] } },
        },
      ],
    });
    const groupId = group.body.results[0].success.id as string;
    const adsPath = `${groupsPath}/${groupId}/ads`;
    const scope = ['--campaign', campaignId, '--ad-group', groupId];
    await fc.assert(
      fc.asyncProperty(fc.array(text, { minLength: 1, maxLength: 4 }), fc.nat(), async (names, which) => {
        expectCreated(await api(sandbox.url, token, 'POST', adsPath, { ads: names.map((name) => ({ name })) }));
        const rows = await unchangedRoundTrip('ads', scope, scope);
        const before = await readAll(adsPath, 'ads', 'ad_id');
        const row = rows[which % rows.length]!;
        row.name = `${row.name} (edited)`;
        expect(await patchCsv('ads', scope, stringify(rows, { header: true }))).toEqual(rows.map((r) => (r === row ? 'ok' : 'unchanged')));
        const after = await readAll(adsPath, 'ads', 'ad_id');
        for (const [id, ad] of before) expect(after.get(id), id).toEqual(id === row.ad_id ? { ...ad, name: row.name } : ad);
      }),
      { numRuns: 10 },
    );
  });
});
