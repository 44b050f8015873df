// A write changes exactly the fields the user named, checked over raw HTTP: the API replaces
// budget, schedule and targeting whole, so the CLI reads them first and sends them whole.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';
import { api, getToken } from '../../helpers/sandbox.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let token: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  token = await getToken(sandbox.url);
});
afterAll(() => sandbox.close());

type Json = Record<string, any>;
const campaignsPath = () => `/v1/ads/${account}/campaigns`;
const campaign = async (id: string): Promise<Json> => (await api(sandbox.url, token, 'GET', `${campaignsPath()}?campaign_id=${id}`)).body.campaigns[0];
const adGroup = async (campaignId: string, id: string): Promise<Json> =>
  (await api(sandbox.url, token, 'GET', `${campaignsPath()}/${campaignId}/ad-groups?ad_group_id=${id}`)).body.ad_groups[0];

/** A fresh campaign with a weekly budget of 376 USD, and an ad group with OR targeting of three criteria. */
async function fixture(): Promise<{ campaignId: string; adGroupId: string }> {
  const created = await api(sandbox.url, token, 'POST', campaignsPath(), {
    campaigns: [
      {
        name: 'Exact',
        configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
        budget: { unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '37600000', currency_code: 'USD' } },
      },
    ],
  });
  const campaignId = created.body.results[0].success.id as string;
  const stores = (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/stores`)).body.stores as Array<{ id: string }>;
  const group = await api(sandbox.url, token, 'POST', `${campaignsPath()}/${campaignId}/ad-groups`, {
    ad_groups: [
      {
        name: 'Exact group',
        ad_product: 'SPONSORED_LISTING',
        configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
        schedule: { start_time: '2027-01-01T00:00:00Z', end_time: '2027-06-01T00:00:00Z' },
        bidding: { auto: {} },
        targeting: {
          negation: false,
          operator: 'OR',
          criteria: [{ keyword_targeting: { keywords: ['sushi'], match_type: 'BROAD' } }, { platform_one: {} }, { new_to_brand: {} }],
        },
        ad_subjects: { stores: { store_ids: [stores[0]!.id] } },
      },
    ],
  });
  return { campaignId, adGroupId: group.body.results[0].success.id as string };
}

describe('writes change exactly what the user named', () => {
  it('--budget keeps a weekly unit; --budget-unit alone keeps the amount', async () => {
    const { campaignId } = await fixture();
    const amount = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--campaign-id', campaignId, '--budget', '400', '--currency', 'USD']);
    expect(amount.code, amount.stderr).toBe(0);
    expect((await campaign(campaignId)).budget).toMatchObject({ unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '40000000', currency_code: 'USD' } });
    const unit = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--campaign-id', campaignId, '--budget-unit', 'daily']);
    expect(unit.code, unit.stderr).toBe(0);
    expect((await campaign(campaignId)).budget).toMatchObject({ unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '40000000', currency_code: 'USD' } });
  });

  it('--end keeps the start; --start keeps the end', async () => {
    const { campaignId, adGroupId } = await fixture();
    const scope = ['--account', account, '--campaign', campaignId, '--ad-group-id', adGroupId];
    expect((await user.run(['ads', 'ad-groups', 'patch', ...scope, '--end', '2027-09-01T00:00:00Z'])).code).toBe(0);
    expect((await adGroup(campaignId, adGroupId)).schedule).toEqual({ start_time: '2027-01-01T00:00:00Z', end_time: '2027-09-01T00:00:00Z' });
    expect((await user.run(['ads', 'ad-groups', 'patch', ...scope, '--start', '2027-02-01T00:00:00Z'])).code).toBe(0);
    expect((await adGroup(campaignId, adGroupId)).schedule).toEqual({ start_time: '2027-02-01T00:00:00Z', end_time: '2027-09-01T00:00:00Z' });
  });

  it('--keywords replaces only the keyword criterion and keeps OR; --no-platform-one and --platform-one touch only theirs', async () => {
    const { campaignId, adGroupId } = await fixture();
    const scope = ['--account', account, '--campaign', campaignId, '--ad-group-id', adGroupId];
    const keywords = await user.run(['ads', 'ad-groups', 'patch', ...scope, '--keywords', 'pizza,pasta']);
    expect(keywords.code, keywords.stderr).toBe(0);
    expect((await adGroup(campaignId, adGroupId)).targeting).toEqual({
      negation: false,
      operator: 'OR',
      criteria: [{ keyword_targeting: { keywords: ['pizza', 'pasta'], match_type: 'MATCH_TYPE_EXACT' } }, { platform_one: {} }, { new_to_brand: {} }],
    });
    expect((await user.run(['ads', 'ad-groups', 'patch', ...scope, '--no-platform-one'])).code).toBe(0);
    expect((await adGroup(campaignId, adGroupId)).targeting.criteria).toEqual([
      { keyword_targeting: { keywords: ['pizza', 'pasta'], match_type: 'MATCH_TYPE_EXACT' } },
      { new_to_brand: {} },
    ]);
    expect((await user.run(['ads', 'ad-groups', 'patch', ...scope, '--platform-one'])).code).toBe(0);
    expect((await adGroup(campaignId, adGroupId)).targeting.criteria).toHaveLength(3);
  });

  it('a row that changes nothing is reported unchanged and not sent', async () => {
    const { campaignId } = await fixture();
    const before = sandbox.stats.writesById.get(campaignId) ?? 0;
    const result = await user.run([
      'ads',
      'campaigns',
      'patch',
      '--account',
      account,
      '--campaign-id',
      campaignId,
      '--budget',
      '376',
      '--currency',
      'USD',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ result: 'unchanged', id: campaignId })]);
    expect(sandbox.stats.writesById.get(campaignId) ?? 0).toBe(before);
  });

  it('ad groups of both products, manual, goal-based and auto bidding, several criteria and dayparting round-trip; one edited cell changes only its field', async () => {
    const { campaignId } = await fixture();
    const scope = ['--account', account, '--campaign', campaignId];
    const store = ((await api(sandbox.url, token, 'GET', `/v1/ads/${account}/stores`)).body.stores as Array<{ id: string }>)[0]!.id;
    const created = await user.run(['ads', 'ad-groups', 'create', ...scope, '--from-csv', '-', '-o', 'ndjson'], {
      stdin: [
        'name,status,store_ids,ad_product,bid,currency,bidding,bidding.goal_based.roas_goal,keywords,match_type,platform_one,start_time,end_time,daypart,budget,budget_unit',
        `Manual listing,active,${store},listing,1.25,USD,,,sushi|ramen,exact,true,2027-01-01T00:00:00Z,,mon-fri=11:00-14:00|sat=10:00-24:00,50,daily`,
        `Goal search,paused,${store},search,,,goal_based,3.5,pizza,broad,,2027-01-01T00:00:00Z,2027-03-01T00:00:00Z,,,`,
        `Auto listing,active,${store},listing,,USD,auto,,,,true,2027-02-01T00:00:00Z,,sun=09:00-12:00,20,weekly`,
      ].join('\n'),
    });
    expect(created.code, created.stderr).toBe(0);
    const listing = await user.run(['ads', 'ad-groups', 'list', ...scope, '--all', '-o', 'csv']);
    const writes = sandbox.stats.writesById.size;
    const same = await user.run(['ads', 'ad-groups', 'patch', '--account', account, '--from-csv', '-', '-o', 'ndjson'], { stdin: listing.stdout });
    expect(same.code, same.stderr).toBe(0);
    const results = same.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { result: string }).result);
    expect(results).toHaveLength(4);
    expect(results.every((r) => r === 'unchanged')).toBe(true);
    expect(sandbox.stats.writesById.size).toBe(writes);

    // One cell edited: the manual group's daypart; everything else of every group stays.
    const { parse } = await import('csv-parse/sync');
    const { stringify } = await import('csv-stringify/sync');
    const rows = parse<Record<string, string>>(listing.stdout, { columns: true });
    const manual = rows.find((r) => r.name === 'Manual listing')!;
    manual.daypart = 'tue=08:00-09:00';
    const all = async () =>
      new Map(
        ((await api(sandbox.url, token, 'GET', `${campaignsPath()}/${campaignId}/ad-groups`)).body.ad_groups as Json[]).map((g) => [
          g.ad_group_id as string,
          g,
        ]),
      );
    const before = await all();
    const edited = await user.run(['ads', 'ad-groups', 'patch', '--account', account, '--from-csv', '-', '-o', 'ndjson'], {
      stdin: stringify(rows, { header: true }),
    });
    expect(edited.code, edited.stderr).toBe(0);
    const after = await all();
    const fields = ({ updated_at: _u, ...rest }: Json) => rest;
    for (const [id, group] of before) {
      if (id !== manual.ad_group_id) expect(fields(after.get(id)!), String(group.name)).toEqual(fields(group));
      else {
        const { dayparting_schedule: was, ...rest } = fields(group);
        const { dayparting_schedule: now, ...restAfter } = fields(after.get(id)!);
        expect(restAfter).toEqual(rest);
        expect(now).not.toEqual(was);
        expect((now as { dayparting_day_schedule: Array<{ intervals: unknown[] }> }).dayparting_day_schedule[1]!.intervals).toHaveLength(1);
      }
    }
  });

  it('ads ad-groups list -o csv | ads ad-groups patch --from-csv - reports every row unchanged', async () => {
    const { campaignId } = await fixture();
    const listed = await user.run(['ads', 'ad-groups', 'list', '--account', account, '--campaign', campaignId, '--all', '-o', 'csv']);
    const before = sandbox.stats.apiRequests;
    const patched = await user.run(['ads', 'ad-groups', 'patch', '--account', account, '--from-csv', '-', '-o', 'ndjson'], { stdin: listed.stdout });
    expect(patched.code, patched.stderr).toBe(0);
    const rows = patched.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { result: string });
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.result === 'unchanged')).toBe(true);
    // Only reads: nothing was written.
    expect(sandbox.stats.requests.slice(-(sandbox.stats.apiRequests - before)).every((r) => r.method === 'GET')).toBe(true);
  });

  it('campaign list -o csv round-trips unchanged over every seeded campaign', async () => {
    const listed = await user.run(['ads', 'campaigns', 'list', '--account', account, '--all', '-o', 'csv']);
    const patched = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-', '-o', 'ndjson'], { stdin: listed.stdout });
    expect(patched.code, patched.stderr).toBe(0);
    const rows = patched.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { result: string });
    expect(rows.filter((r) => r.result !== 'unchanged')).toEqual([]);
  });
});

describe('input errors, all at once', () => {
  it('a duplicate CSV column is an error naming it and its line; nothing sent', async () => {
    const before = sandbox.stats.apiRequests;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'], { stdin: 'campaign_id,campaign_id,name\na,b,c\n' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('--from-csv line 1: the header has the column "campaign_id" twice');
    expect(sandbox.stats.apiRequests).toBe(before);
  });

  it('every problem of a JSON item is reported, on one line naming its line once', async () => {
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', '-'], {
      stdin: `${JSON.stringify({ campaign_id: 'c1', name: 'ok' })}\n${JSON.stringify({ campaign_id: 'c2', configured_status: 'NOPE', budget: { unit: 'WEEKS', total: { amount_e5: 'x', currency_code: 'USD' } } })}\n`,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const line = /: (line 2: .*)$/.exec(result.stderr.trim())![1]!;
    expect(line).toMatch(/configured_status/);
    expect(line).toMatch(/budget\.unit/);
    expect(line).toMatch(/budget\.total\.amount_e5/);
    const broken = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', '-'], {
      stdin: '{"campaign_id":"c1","name":"a"}\n{not json\n',
    });
    expect(broken.stderr.trim()).toMatch(/^--from-json line 2: not valid JSON/);
    expect(broken.stderr).not.toMatch(/line 2 line/);
  });

  it('every problem of a CSV row or of flags is reported, not only the first; nothing sent', async () => {
    const before = sandbox.stats.apiRequests;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'], {
      stdin: 'campaign_id,status,budget,currency,budget_unit\nc1,nope,12.345678,USD,monthly\n',
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    const line = /: (line 2: .*)$/.exec(result.stderr.trim())![1]!;
    expect(line).toMatch(/status: "nope"/);
    expect(line).toMatch(/budget: /);
    const flags = await user.run([
      ...['ads', 'ad-groups', 'patch', '--account', account, '--campaign', 'c1', '--ad-group-id', 'g1'],
      ...['--budget', '1.1234567', '--currency', 'USD', '--bid', 'abc', '--daypart', 'xx'],
    ]);
    expect(flags.code).toBe(2);
    expect(flags.stderr.trim().split('\n')).toHaveLength(1);
    expect(flags.stderr).toMatch(/^--budget: .*; --bid: .*; --daypart: /);
    expect(sandbox.stats.apiRequests).toBe(before);
  });

  it('a JSON key given twice is an error naming it and its line (NDJSON, a document, a streamed one); nothing sent', async () => {
    const before = sandbox.stats.apiRequests;
    const patch = (stdin: string) => user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', '-'], { stdin });
    const ndjson = await patch('{"campaign_id":"a","name":"x"}\n{"campaign_id":"b","name":"y","campaign_id":"c"}\n');
    expect(ndjson.code).toBe(2);
    expect(ndjson.stderr.trim()).toBe('--from-json line 2: the key "campaign_id" is given twice in one object');
    const document = await patch('\n{\n  "campaigns": [\n    {"campaign_id": "a",\n     "name": "x",\n     "name": "y"}\n  ]\n}\n');
    expect(document.stderr.trim()).toBe('--from-json line 6: the key "name" is given twice in one object');
    // Over 1 MiB, the document is streamed, line by line: the line is named too.
    const items = Array.from({ length: 20_000 }, (_, i) => `{"campaign_id":"c${i}","name":"campaign number ${i}"}`);
    items[15_000] = '{"campaign_id":"c15000","name":"n","campaign_id":"other"}';
    const streamed = await patch(`[\n${items.join(',\n')}\n]\n`);
    expect(streamed.code).toBe(2);
    expect(streamed.stderr.trim()).toBe('--from-json line 15002: the key "campaign_id" is given twice in one object');
    items[15_000] = '{"campaign_id":"c15000","name":}';
    const broken = await patch(`[\n${items.join(',\n')}\n]\n`);
    expect(broken.code).toBe(2);
    expect(broken.stderr.trim()).toMatch(/^--from-json line 15002: not valid JSON \(/);
    expect(sandbox.stats.apiRequests).toBe(before);
  });

  it('{"campaigns": "nope"} says what shape was expected', async () => {
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-json', '-'], { stdin: '{"campaigns": "nope"}' });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('--from-json: "campaigns" must be an array of items, e.g. {"campaigns": [{...}, {...}]}, not string');
  });

  it('a header followed by a million blank lines is refused as having no rows (how fast: see the closing note)', async () => {
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-'], {
      stdin: `campaign_id,name\n${'\n'.repeat(1_000_000)}`,
    });
    expect(result.code).toBe(2);
    expect(result.stderr.trim()).toBe('the input has no rows');
  });
});
