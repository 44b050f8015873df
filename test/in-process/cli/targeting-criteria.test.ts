// Every criterion shape of the OpenAPI's ad group inputs (keywords, platform_one,
// order_frequency, the four empty audience kinds, nested groups of criteria) is accepted by
// the CLI and stored by the sandbox, shown by `view`, kept untouched when other fields are
// patched, and round-trips through `-o json` and `--from-json`. Before, order_frequency and
// nested `criteria` were "unknown field" (exit 2) and --keywords on such a group failed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, type TestUser } from '../../helpers/cli.js';
import type { Result } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let campaignId: string;
let store: string;
const dir = tempDir();

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  const [created] = await user.json<Result[]>(['ads', 'campaigns', 'create', '--account', account, '--name', 'Every criterion']);
  campaignId = created!.id;
  const [first] = await user.json<Array<{ id: string }>>(['ads', 'stores', 'list', '--account', account, '--limit', '1']);
  store = first!.id;
});
afterAll(() => sandbox.close());

const orderFrequency = { lower_bound: 1, upper_bound: 5, time_range: { past_days_range: { start_day: 0, end_day: 30 } } };
/** As sent: the input spelling EXACT/BROAD. */
const everyShape = {
  negation: false,
  operator: 'AND',
  criteria: [
    { keyword_targeting: { keywords: ['sushi', 'ramen'], match_type: 'EXACT' } },
    { platform_one: {} },
    { order_frequency: orderFrequency },
    { new_to_brand: {} },
    { new_to_location: {} },
    { existing_to_location: {} },
    { lapsed_to_location: {} },
    {
      criteria: {
        negation: true,
        operator: 'OR',
        criteria: [{ keyword_targeting: { keywords: ['noodles'], match_type: 'BROAD' } }, { order_frequency: { ...orderFrequency, upper_bound: -1 } }],
      },
    },
  ],
};
/** As the API shows it: match types MATCH_TYPE_*, in the nested group too. */
const everyShapeShown = JSON.parse(JSON.stringify(everyShape).replace(/"(EXACT|BROAD)"/g, '"MATCH_TYPE_$1"')) as typeof everyShape;

const args = () => ['--account', account, '--campaign', campaignId];

function file(name: string, content: unknown): string {
  const at = path.join(dir, name);
  fs.writeFileSync(at, typeof content === 'string' ? content : JSON.stringify(content));
  return at;
}

async function createWith(name: string, targeting: unknown): Promise<string> {
  const item = {
    name,
    ad_product: 'SPONSORED_SEARCH',
    configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
    schedule: { start_time: '2026-12-01T00:00:00Z' },
    bidding: { auto: {} },
    targeting,
    ad_subjects: { stores: { store_ids: [store] } },
  };
  const result = await user.run(['ads', 'ad-groups', 'create', ...args(), '--from-json', file(`${name}.json`, [item]), '--json']);
  expect(result.stderr).toBe('');
  expect(result.code).toBe(0);
  const [row] = JSON.parse(result.stdout) as Result[];
  expect(row!.result).toBe('ok');
  return row!.id;
}

async function adGroup(id: string): Promise<Record<string, unknown>> {
  const [group] = await user.json<Array<Record<string, unknown>>>(['ads', 'ad-groups', 'list', ...args(), '--id', id]);
  return group!;
}

describe('targeting as the OpenAPI has it', () => {
  it('creates an ad group with every criterion shape, stored as given (match types in the response spelling)', async () => {
    const id = await createWith('Every shape', everyShape);
    expect((await adGroup(id)).targeting).toEqual(everyShapeShown);
  });

  it('view shows order frequency and the nested group, indented', async () => {
    const id = await createWith('Shown', everyShape);
    const result = await user.run(['ads', 'ad-groups', 'view', ...args(), id], { tty: true, env: { NO_COLOR: '1' } });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('order frequency: more than 1 orders, fewer than 5, days 0 to 30 ago');
    expect(result.stdout).toContain('new to brand');
    expect(result.stdout).toMatch(/\n\s+everyone except: any of:\n\s+keywords \(broad\): noodles\n\s+order frequency: more than 1 orders, no upper limit/);
  });

  it('patching the name, or the keywords, keeps order_frequency and the nested group untouched', async () => {
    const id = await createWith('Kept', everyShape);
    const named = await user.run(['ads', 'ad-groups', 'patch', ...args(), '--ad-group-id', id, '--name', 'Kept, renamed']);
    expect(named.stderr).toBe('');
    expect(named.code).toBe(0);
    expect((await adGroup(id)).targeting).toEqual(everyShapeShown);

    const keywords = await user.run(['ads', 'ad-groups', 'patch', ...args(), '--ad-group-id', id, '--keywords', 'udon,soba']);
    expect(keywords.stderr).toBe('');
    expect(keywords.code).toBe(0);
    const expected = structuredClone(everyShapeShown);
    expected.criteria[0] = { keyword_targeting: { keywords: ['udon', 'soba'], match_type: 'MATCH_TYPE_EXACT' } };
    expect((await adGroup(id)).targeting).toEqual(expected);
  });

  it('the targeting of -o json goes back through --from-json as it came: unchanged, nothing sent', async () => {
    const id = await createWith('Round trip', everyShape);
    const shown = (await adGroup(id)).targeting;
    const writes = sandbox.stats.writesById.get(id) ?? 0;
    const result = await user.run([
      'ads',
      'ad-groups',
      'patch',
      ...args(),
      '--from-json',
      file('round-trip.json', [{ ad_group_id: id, targeting: shown }]),
      '--json',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ id, result: 'unchanged' })]);
    expect(sandbox.stats.writesById.get(id) ?? 0).toBe(writes);
  });

  it('list -o csv patched back with --from-csv is unchanged (the CSV columns leave the other criteria alone)', async () => {
    const id = await createWith('CSV', everyShape);
    const csv = await user.run(['ads', 'ad-groups', 'list', ...args(), '--id', id, '-o', 'csv']);
    expect(csv.code).toBe(0);
    const result = await user.run(['ads', 'ad-groups', 'patch', ...args(), '--from-csv', file('rows.csv', csv.stdout), '--json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toEqual([expect.objectContaining({ id, result: 'unchanged' })]);
    expect((await adGroup(id)).targeting).toEqual(everyShapeShown);
  });

  it('a bad order frequency is one line naming its path, exit 2, nothing sent', async () => {
    const bad = { negation: false, operator: 'AND', criteria: [{ order_frequency: { ...orderFrequency, upper_bound: 1 } }] };
    const before = sandbox.stats.apiRequests;
    const item = { ad_group_id: 'ag-1', targeting: bad };
    const result = await user.run(['ads', 'ad-groups', 'patch', ...args(), '--from-json', file('bad.json', [item])]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('targeting.criteria[0].order_frequency.upper_bound: must be -1 (no upper limit) or more than lower_bound');
    expect(sandbox.stats.apiRequests).toBe(before);
  });
});
