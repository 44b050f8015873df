// Some bulk patch rows can be judged only against the resource as it is now: an amount
// without a currency on a campaign that has no budget (no currency to take), an amount in
// another currency than the campaign's. Such a row refuses the run before anything is sent,
// as a row at fault in itself does (exit 2, each row named with its line and id); before,
// the rows before and around it were sent and it was reported invalid afterwards, with no id.
// A dry run reports them with their ids and exits 1, as the run with --skip-invalid does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, TestUser } from '../../helpers/cli.js';
import type { Campaign } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let user: TestUser;
let campaigns: Campaign[];
let dir: string;

beforeAll(async () => {
  let account: string;
  // More campaigns with a budget than a bulk patch looks up one by one (50): the rows are then checked from the pages.
  ({ sandbox, user, account } = await sandboxWithUser({ campaigns: 150 }));
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
  campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'patch-against-current-'));
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const withBudget = () => campaigns.filter((c) => c.budget);
const withoutBudget = () => campaigns.filter((c) => !c.budget);
const csvFile = (name: string, lines: string[]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
};
const writes = () => [...sandbox.stats.writesById.values()].reduce((sum, n) => sum + n, 0);
const noWrite = () => sandbox.stats.requests.every((r) => r.method === 'GET');

describe('a bulk patch row judged against the current campaign', () => {
  it('refuses the run before anything is sent: exit 2, each row named with its line and campaign', async () => {
    const [a, b, c] = withBudget();
    const bare = withoutBudget()[0]!;
    const input = csvFile('few.csv', [
      'campaign_id,name,budget,currency',
      `${a!.campaign_id},Renamed A,,`,
      `${bare.campaign_id},,10,`,
      `${b!.campaign_id},,5,EUR`,
      `${c!.campaign_id},Renamed C,,`,
    ]);
    sandbox.resetStats();
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '-o', 'json']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      '2 of 4 rows are invalid against the current campaigns; nothing was sent (fix them, or add --skip-invalid to send the rest): ' +
        `line 3 (campaign ${bare.campaign_id}): currency: currency is required with budget: there is no amount yet to take it from; ` +
        `line 4 (campaign ${b!.campaign_id}): currency: currency EUR does not match campaign ${b!.campaign_id}, which is in USD: leave out currency to use USD\n`,
    );
    expect(noWrite()).toBe(true);
    expect(writes()).toBe(0);
  });

  it('one row from a file is refused the same way (exit 2, not a result and exit 1)', async () => {
    const bare = withoutBudget()[4]!;
    sandbox.resetStats();
    const result = await user.run([
      'ads',
      'campaigns',
      'patch',
      '--from-csv',
      csvFile('one.csv', ['campaign_id,budget', `${bare.campaign_id},9`]),
      '-o',
      'json',
    ]);
    expect([result.code, result.stdout]).toEqual([2, '']);
    expect(result.stderr).toContain('1 of 1 rows are invalid against the current campaigns; nothing was sent');
    expect(noWrite()).toBe(true);
  });

  it('is found on the last of many rows too (the pages read, not one request per id): nothing sent', async () => {
    const budgeted = withBudget();
    expect(budgeted.length).toBeGreaterThan(50);
    const bare = withoutBudget()[1]!;
    const input = csvFile('many.csv', ['campaign_id,budget,currency', ...budgeted.map((x, i) => `${x.campaign_id},${40 + i},USD`), `${bare.campaign_id},12,`]);
    sandbox.resetStats();
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '-o', 'json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`line ${budgeted.length + 2} (campaign ${bare.campaign_id}): currency: currency is required with budget`);
    expect(result.stderr).toContain(`1 of ${budgeted.length + 1} rows are invalid against the current campaigns; nothing was sent`);
    expect(noWrite()).toBe(true);
    // Read page by page, not one request per row.
    expect(sandbox.stats.requests.length).toBeLessThan(10);
  });

  it('--skip-invalid sends the rest; the invalid rows keep their campaign ids; exit 1', async () => {
    const [a] = withBudget();
    const bare = withoutBudget()[2]!;
    const input = csvFile('skip.csv', ['campaign_id,name,budget', `${a!.campaign_id},Sent anyway,`, `${bare.campaign_id},,10`]);
    sandbox.resetStats();
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--skip-invalid', '-o', 'json']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toEqual([
      { line: 2, id: a!.campaign_id, result: 'ok', error_code: '', error_message: '' },
      {
        line: 3,
        id: bare.campaign_id,
        result: 'invalid',
        error_code: 'InvalidRow',
        error_message: 'currency: currency is required with budget: there is no amount yet to take it from',
      },
    ]);
    expect(sandbox.stats.writesById.get(a!.campaign_id)).toBe(1);
    expect(sandbox.stats.writesById.get(bare.campaign_id)).toBeUndefined();
  });

  it('a dry run lists them invalid with their ids, counts each kind, and exits 1 as the run would', async () => {
    const [a] = withBudget();
    const bare = withoutBudget()[3]!;
    const input = csvFile('dry.csv', ['campaign_id,name,budget', `${a!.campaign_id},Dry rename,`, `${bare.campaign_id},,10`]);
    sandbox.resetStats();
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--dry-run', '-o', 'json']);
    expect(result.code).toBe(1);
    const rows = JSON.parse(result.stdout) as Array<{ line: number; id: string; result: string }>;
    expect(rows.map((r) => [r.line, r.id, r.result])).toEqual([
      [2, a!.campaign_id, 'would_update'],
      [3, bare.campaign_id, 'invalid'],
    ]);
    expect(result.stderr).toBe('2 rows: 1 would update, 1 invalid (dry run: nothing sent)\n1 of 2 rows would not be applied (1 invalid)\n');
    expect(noWrite()).toBe(true);
  });

  it("an ad group's bid is judged the same way: one with no amount has no currency to take", async () => {
    type Group = { ad_group_id: string; budget?: unknown; bidding: { manual?: unknown } };
    let found: { campaign: string; bare: string; priced: string } | undefined;
    for (const c of campaigns) {
      const groups = await user.json<Group[]>(['ads', 'ad-groups', 'list', '--campaign', c.campaign_id]);
      const bare = groups.find((g) => !g.budget && !g.bidding.manual);
      const priced = groups.find((g) => g.bidding.manual);
      if (bare && priced) found = { campaign: c.campaign_id, bare: bare.ad_group_id, priced: priced.ad_group_id };
      if (found) break;
    }
    const { campaign, bare, priced } = found!;
    const input = csvFile('groups.csv', ['ad_group_id,campaign_id,bid', `${priced},${campaign},0.95`, `${bare},${campaign},0.85`]);
    sandbox.resetStats();
    const result = await user.run(['ads', 'ad-groups', 'patch', '--from-csv', input, '-o', 'json']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      '1 of 2 rows are invalid against the current ad groups; nothing was sent (fix them, or add --skip-invalid to send the rest): ' +
        `line 3 (ad group ${bare}): currency: currency is required with bid: there is no amount yet to take it from\n`,
    );
    expect(noWrite()).toBe(true);
  });

  it('a check whose reads fail for good sends nothing and gives every row a result (not sent); --resume sends them', async () => {
    const rows = withBudget().slice(5, 9);
    const input = csvFile('unreadable.csv', ['campaign_id,budget', ...rows.map((x, i) => `${x.campaign_id},${71 + i}`)]);
    sandbox.resetStats();
    sandbox.setFaults({ failRate: 1 });
    let failed;
    try {
      failed = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '-o', 'json']);
    } finally {
      sandbox.setFaults({ failRate: 0 });
    }
    expect(failed.code).toBe(1);
    const results = JSON.parse(failed.stdout) as Array<{ id: string; result: string; error_code: string; error_message: string }>;
    expect(results.map((r) => [r.id, r.result, r.error_code])).toEqual(rows.map((x) => [x.campaign_id, 'skipped', 'NotSent']));
    expect(results[0]!.error_message).toMatch(/^not sent: the current state could not be read/);
    expect(noWrite()).toBe(true);
    const journal = /^Journal: (.+)$/m.exec(failed.stderr)![1]!;

    const resumed = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--resume', journal, '-o', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as Array<{ result: string }>).map((r) => r.result)).toEqual(rows.map(() => 'ok'));
    for (const x of rows) expect(sandbox.stats.writesById.get(x.campaign_id)).toBe(1);
  });

  it('a resume reports a row applied before as applied, even when its campaign has lost its budget since', async () => {
    const [a, b] = withBudget().slice(10, 12);
    const input = csvFile('resumed.csv', ['campaign_id,budget', `${a!.campaign_id},41`, `${b!.campaign_id},42`]);
    const first = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '-o', 'ndjson']);
    expect(first.code, first.stderr).toBe(0);
    const results = csvFile('resumed-results.ndjson', [first.stdout.trim()]);
    const journal = /^Journal: (.+)$/m.exec(first.stderr)![1]!;
    // Its budget removed since: the row, sent again now, would have no currency to take.
    expect((await user.run(['ads', 'campaigns', 'patch', a!.campaign_id, '--clear', 'budget'])).code).toBe(0);
    // From its results and from its journal; with --skip-invalid (no check first), the run itself says so too.
    for (const resume of [
      ['--resume', results],
      ['--resume', journal],
      ['--resume', results, '--skip-invalid'],
    ]) {
      sandbox.resetStats();
      const resumed = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, ...resume, '-o', 'json']);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect((JSON.parse(resumed.stdout) as Array<{ result: string; error_code: string }>).map((r) => [r.result, r.error_code])).toEqual([
        ['skipped', 'AlreadyApplied'],
        ['skipped', 'AlreadyApplied'],
      ]);
      expect(noWrite()).toBe(true);
    }
  });

  it('rows that the current campaigns make whole are sent as before (an amount in the campaign currency)', async () => {
    const [, , , d, e] = withBudget();
    const input = csvFile('fine.csv', ['campaign_id,budget', `${d!.campaign_id},61.5`, `${e!.campaign_id},62.5`]);
    sandbox.resetStats();
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    const [after] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--id', e!.campaign_id]);
    expect(after!.budget).toEqual({ unit: e!.budget!.unit, total: { amount_e5: '6250000', currency_code: e!.budget!.total.currency_code } });
  });

  it('the dotted API paths of a budget change only what they name, as budget_e5 and budget_unit do', async () => {
    const [f] = withBudget().slice(-1);
    const other = f!.budget!.unit === 'BUDGET_UNIT_WEEKLY' ? 'BUDGET_UNIT_DAILY' : 'BUDGET_UNIT_WEEKLY';
    const amount = await user.run([
      'ads',
      'campaigns',
      'patch',
      '--from-csv',
      csvFile('dotted-amount.csv', ['campaign_id,budget.total.amount_e5', `${f!.campaign_id},7700000`]),
    ]);
    expect(amount.code, amount.stderr).toBe(0);
    const unit = await user.run([
      'ads',
      'campaigns',
      'patch',
      '--from-csv',
      csvFile('dotted-unit.csv', ['campaign_id,budget.unit', `${f!.campaign_id},${other}`]),
    ]);
    expect(unit.code, unit.stderr).toBe(0);
    const [after] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--id', f!.campaign_id]);
    expect(after!.budget).toEqual({ unit: other, total: { amount_e5: '7700000', currency_code: f!.budget!.total.currency_code } });
  });
});
