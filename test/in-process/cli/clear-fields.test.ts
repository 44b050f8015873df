// Clearing fields (issue #25 item 6): the OpenAPI's text says an empty budget, targeting or
// dayparting schedule removes it. `patch --clear FIELD`, a CSV cell `[]` and a JSON `{}` send
// the empty object (an empty cell and a JSON null leave the field as it is); a dry run says
// what goes; runs undo gives a cleared budget back and clears one a run set where there was
// none. Bad uses are one line naming the flag, exit 2, nothing sent. The contract gate checks
// every body sent here against the OpenAPI (with its overlay (c) for `{}`).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';

interface AdGroup {
  ad_group_id: string;
  campaign_id: string;
  name: string;
  budget?: unknown;
  targeting?: unknown;
  dayparting_schedule?: unknown;
}

let sandbox: Sandbox;
let user: TestUser;
let campaigns: Campaign[];
/** The first campaigns' ad groups (the seed gives some targeting, dayparting and budgets). */
let groups: AdGroup[];

beforeAll(async () => {
  let account: string;
  ({ sandbox, account } = await sandboxWithUser({ campaigns: 40 }));
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
  campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
  groups = [];
  for (const c of campaigns.slice(0, 8)) groups.push(...(await user.json<AdGroup[]>(['ads', 'ad-groups', 'list', '--campaign', c.campaign_id, '--all'])));
});
afterAll(() => sandbox.close());

/** Each campaign with (or without) a budget once: a test takes the next, so none shares one. */
const budgeted = () => campaigns.filter((c) => c.budget);
let nextBudgeted = 0;
let nextUnbudgeted = 0;
const withBudget = () => budgeted()[nextBudgeted++]!;
const withoutBudget = () => campaigns.filter((c) => !c.budget)[nextUnbudgeted++]!;
const read = async (id: string) => (await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--id', id]))[0]!;
const readGroup = async (g: AdGroup) => (await user.json<AdGroup[]>(['ads', 'ad-groups', 'list', '--campaign', g.campaign_id, '--id', g.ad_group_id]))[0]!;
/** An ad group no other test has taken, as it was listed before any test. */
const used = new Set<string>();
const takeGroup = (wanted: (g: AdGroup) => unknown) => {
  const group = groups.find((g) => !used.has(g.ad_group_id) && wanted(g));
  if (!group) throw new Error('the seed has no more such ad groups');
  used.add(group.ad_group_id);
  return group;
};
const writes = (id: string) => sandbox.stats.writesById.get(id) ?? 0;
const newestRun = async () => (await user.json<Array<{ run: string }>>(['ads', 'runs', 'list']))[0]!.run;

describe('patch --clear FIELD', () => {
  it('--clear budget removes a campaign budget; the dry run says what goes, in a person’s words and in the API’s', async () => {
    const target = withBudget();
    const args = ['ads', 'campaigns', 'patch', target.campaign_id, '--clear', 'budget'];
    const table = await user.run([...args, '--dry-run'], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.code, table.stderr).toBe(0);
    const amount = (Number(target.budget!.total.amount_e5) / 1e5).toFixed(2);
    expect(table.stdout).toContain(`budget: ${amount} USD ${target.budget!.unit.replace('BUDGET_UNIT_', '').toLowerCase()} -> (cleared)`);
    const [row] = await user.json<Array<Record<string, unknown>>>([...args, '--dry-run']);
    expect(row).toMatchObject({ result: 'would_update', changes: `budget: ${JSON.stringify(target.budget)} -> {}` });
    expect(writes(target.campaign_id)).toBe(0);

    const done = await user.run(args);
    expect(done.code, done.stderr).toBe(0);
    expect((await read(target.campaign_id)).budget).toBeUndefined();
    // Nothing left to remove: unchanged, not sent again.
    const [again] = await user.json<Result[]>(args);
    expect(again).toMatchObject({ id: target.campaign_id, result: 'unchanged' });
    expect(writes(target.campaign_id)).toBe(1);
  });

  it("--clear targeting and --clear dayparting_schedule remove an ad group's targeting and dayparting; the rest stays", async () => {
    const group = takeGroup((g) => g.targeting && g.dayparting_schedule && g.budget);
    expect(group).toBeDefined();
    const result = await user.run([
      'ads',
      'ad-groups',
      'patch',
      group.ad_group_id,
      '--campaign',
      group.campaign_id,
      '--clear',
      'targeting',
      '--clear',
      'dayparting_schedule',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const after = await readGroup(group);
    expect(after.targeting).toBeUndefined();
    expect(after.dayparting_schedule).toBeUndefined();
    expect(after.budget).toEqual(group.budget);
    expect(after.name).toBe(group.name);
  });

  it('bad uses are one line naming the flag, exit 2, nothing sent', async () => {
    const target = withBudget();
    const taken = takeGroup(() => true);
    const [group, campaign] = [taken.ad_group_id, taken.campaign_id];
    const cases: Array<[string[], string]> = [
      [['ads', 'campaigns', 'patch', target.campaign_id, '--clear', 'name'], '--clear name: not a field that can be cleared; give budget\n'],
      [['ads', 'campaigns', 'patch', target.campaign_id, '--clear', 'targeting'], '--clear targeting: not a field that can be cleared; give budget\n'],
      [
        ['ads', 'ad-groups', 'patch', group, '--campaign', campaign, '--clear', 'bidding'],
        '--clear bidding: not a field that can be cleared; give budget, targeting, dayparting_schedule\n',
      ],
      [
        ['ads', 'campaigns', 'patch', target.campaign_id, '--clear', 'budget', '--budget', '5'],
        '--clear budget cannot be used with --budget: one removes what the other sets\n',
      ],
      [
        ['ads', 'ad-groups', 'patch', group, '--campaign', campaign, '--clear', 'targeting', '--platform-one'],
        '--clear targeting cannot be used with --platform-one: one removes what the other sets\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      const result = await user.run(args);
      expect([result.code, result.stderr], args.join(' ')).toEqual([2, stderr]);
    }
    expect(writes(target.campaign_id)).toBe(0);
    expect(writes(group)).toBe(0);
  });

  it('--match-type without --keywords and --currency without an amount (silent no-ops before) are one line naming the flag, exit 2, nothing sent', async () => {
    const target = withBudget();
    const taken = takeGroup(() => true);
    const [group, campaign] = [taken.ad_group_id, taken.campaign_id];
    const before = [writes(target.campaign_id), writes(group)];
    const cases: Array<[string[], string]> = [
      [
        ['ads', 'ad-groups', 'patch', group, '--campaign', campaign, '--match-type', 'broad'],
        '--match-type needs --keywords: it is the match type of the keywords given\n',
      ],
      [
        ['ads', 'campaigns', 'patch', target.campaign_id, '--currency', 'USD'],
        '--currency needs --budget or --budget-e5: it is the currency of the amount given\n',
      ],
      [
        ['ads', 'ad-groups', 'patch', group, '--campaign', campaign, '--currency', 'USD'],
        '--currency needs --budget, --budget-e5 or --bid: it is the currency of the amount given\n',
      ],
    ];
    for (const [args, stderr] of cases) {
      const result = await user.run(args);
      expect([result.code, result.stderr], args.join(' ')).toEqual([2, stderr]);
    }
    expect([writes(target.campaign_id), writes(group)]).toEqual(before);
  });
});

describe('bulk input', () => {
  it('a CSV cell [] clears the field; an empty cell leaves it', async () => {
    const [cleared, kept] = [withBudget(), withBudget()];
    const csv = `campaign_id,name,budget,currency,budget_unit\n${cleared.campaign_id},,[],,\n${kept.campaign_id},Kept budget,,,\n`;
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-csv', '-', '-o', 'json'], { stdin: csv });
    expect(result.code, result.stderr).toBe(0);
    expect((JSON.parse(result.stdout) as Result[]).map((r) => r.result)).toEqual(['ok', 'ok']);
    expect((await read(cleared.campaign_id)).budget).toBeUndefined();
    expect(await read(kept.campaign_id)).toMatchObject({ name: 'Kept budget', budget: kept.budget });
  });

  it("an ad group's [] in a targeting or daypart column clears that field; a row that also sets one of its columns is invalid", async () => {
    const group = takeGroup((g) => g.targeting && g.dayparting_schedule);
    const bad = await user.run(['ads', 'ad-groups', 'patch', '--campaign', group.campaign_id, '--from-csv', '-', '-o', 'json'], {
      stdin: `ad_group_id,keywords,platform_one\n${group.ad_group_id},[],true\n`,
    });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('platform_one: cannot be set in a row that clears targeting ([]): leave it empty');
    expect(writes(group.ad_group_id)).toBe(0);

    const csv = `ad_group_id,keywords,match_type,daypart\n${group.ad_group_id},[],,[]\n`;
    const result = await user.run(['ads', 'ad-groups', 'patch', '--campaign', group.campaign_id, '--from-csv', '-'], { stdin: csv });
    expect(result.code, result.stderr).toBe(0);
    const after = await readGroup(group);
    expect([after.targeting, after.dayparting_schedule]).toEqual([undefined, undefined]);
  });

  it('--from-json: {} clears, null leaves the field as it is', async () => {
    const [cleared, kept] = [withBudget(), withBudget()];
    const items = [
      { campaign_id: cleared.campaign_id, budget: {} },
      { campaign_id: kept.campaign_id, name: 'Null budget kept', budget: null },
    ];
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-json', '-'], { stdin: items.map((i) => JSON.stringify(i)).join('\n') });
    expect(result.code, result.stderr).toBe(0);
    expect((await read(cleared.campaign_id)).budget).toBeUndefined();
    expect(await read(kept.campaign_id)).toMatchObject({ name: 'Null budget kept', budget: kept.budget });
    // An ad group's null targeting and dayparting are absent too.
    const group = takeGroup((g) => g.targeting && g.dayparting_schedule && g.budget);
    const json = JSON.stringify({ ad_group_id: group.ad_group_id, name: 'Null kept', targeting: null, dayparting_schedule: null, budget: null });
    const groupResult = await user.run(['ads', 'ad-groups', 'patch', '--campaign', group.campaign_id, '--from-json', '-'], { stdin: json });
    expect(groupResult.code, groupResult.stderr).toBe(0);
    const after = await readGroup(group);
    expect(after).toMatchObject({ name: 'Null kept', budget: group.budget });
    expect([after.targeting, after.dayparting_schedule]).toEqual([group.targeting, group.dayparting_schedule]);
  });
});

describe('runs undo of a clear', () => {
  it('a budget set where there was none is cleared again; a cleared budget comes back to the exact amount', async () => {
    const none = withoutBudget();
    const set = await user.run(['ads', 'campaigns', 'patch', none.campaign_id, '--budget', '12.34', '--currency', 'USD', '--budget-unit', 'weekly']);
    expect(set.code, set.stderr).toBe(0);
    expect((await read(none.campaign_id)).budget).toEqual({ unit: 'BUDGET_UNIT_WEEKLY', total: { amount_e5: '1234000', currency_code: 'USD' } });
    const undoSet = await user.run(['ads', 'runs', 'undo', await newestRun(), '-o', 'json']);
    expect(undoSet.code, undoSet.stderr).toBe(0);
    expect((JSON.parse(undoSet.stdout) as Result[]).map((r) => r.result)).toEqual(['ok']);
    expect((await read(none.campaign_id)).budget).toBeUndefined();

    const some = withBudget();
    expect((await user.run(['ads', 'campaigns', 'patch', some.campaign_id, '--clear', 'budget'])).code).toBe(0);
    expect((await read(some.campaign_id)).budget).toBeUndefined();
    const undoClear = await user.run(['ads', 'runs', 'undo', await newestRun(), '-o', 'json']);
    expect(undoClear.code, undoClear.stderr).toBe(0);
    expect((JSON.parse(undoClear.stdout) as Result[]).map((r) => r.result)).toEqual(['ok']);
    // The exact amount and unit (a response-only cofunding_sources cannot be written back).
    expect((await read(some.campaign_id)).budget).toMatchObject({ unit: some.budget!.unit, total: some.budget!.total });
  });

  it("an ad group's cleared dayparting comes back, and a budget set where it had none is cleared", async () => {
    const group = takeGroup((g) => !g.budget && g.dayparting_schedule);
    expect(group).toBeDefined();
    const args = [
      'ads',
      'ad-groups',
      'patch',
      group.ad_group_id,
      '--campaign',
      group.campaign_id,
      '--clear',
      'dayparting_schedule',
      '--budget',
      '3',
      '--currency',
      'USD',
    ];
    const patch = await user.run([...args, '--budget-unit', 'daily']);
    expect(patch.code, patch.stderr).toBe(0);
    expect(await readGroup(group)).toMatchObject({ budget: { total: { amount_e5: '300000' } } });
    const undo = await user.run(['ads', 'runs', 'undo', await newestRun(), '-o', 'json']);
    expect(undo.code, undo.stderr).toBe(0);
    const after = await readGroup(group);
    expect([after.budget, after.dayparting_schedule]).toEqual([undefined, group.dayparting_schedule]);
  });
});
