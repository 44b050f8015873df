// A patch knows what it can know: an amount without --currency is in the resource's own
// currency (from the read the patch already does), another currency is refused before
// anything is sent; a dry run's table shows decimals and short statuses while JSON keeps the
// API's exact values; a single item keeps its journal as the run's history when it changed
// something (runs list), and otherwise leaves none behind unless it can be resumed.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, TestUser } from '../../helpers/cli.js';
import type { Campaign } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let user: TestUser;
let campaigns: Campaign[];

beforeAll(async () => {
  let account: string;
  ({ sandbox, user, account } = await sandboxWithUser());
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
  campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
});
afterAll(() => sandbox.close());

const withBudget = (n: number) => campaigns.filter((c) => c.budget)[n]!;
const withoutBudget = () => campaigns.find((c) => !c.budget)!;
const read = async (id: string) => (await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--id', id]))[0]!;
const journals = (u: TestUser) => {
  const dir = path.join(u.configDir, '.local/state/platform/runs');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.ndjson')) : [];
};

describe('patch: the currency of an amount', () => {
  it("--budget without --currency is in the campaign's currency; its unit stays", async () => {
    const target = withBudget(0);
    const result = await user.run(['ads', 'campaigns', 'patch', target.campaign_id, '--budget', '75.5']);
    expect(result.code, result.stderr).toBe(0);
    expect((await read(target.campaign_id)).budget).toEqual({
      unit: target.budget!.unit,
      total: { amount_e5: '7550000', currency_code: target.budget!.total.currency_code },
    });
  });

  it('--budget-e5 and CSV rows without a currency go the same way (one mapping)', async () => {
    const target = withBudget(1);
    expect((await user.run(['ads', 'campaigns', 'patch', target.campaign_id, '--budget-e5', '1230000'])).code).toBe(0);
    expect((await read(target.campaign_id)).budget!.total.amount_e5).toBe('1230000');
    const csv = await user.run(['ads', 'campaigns', 'patch', '--from-csv', '-'], { stdin: `campaign_id,budget\n${target.campaign_id},4.56\n` });
    expect(csv.code, csv.stderr).toBe(0);
    expect((await read(target.campaign_id)).budget!.total).toEqual({ amount_e5: '456000', currency_code: 'USD' });
  });

  it("another currency than the campaign's is refused: one line naming both, exit 2, nothing sent", async () => {
    const target = withBudget(2);
    const writes = sandbox.stats.writesById.get(target.campaign_id);
    const runs = journals(user);
    const result = await user.run(['ads', 'campaigns', 'patch', target.campaign_id, '--budget', '75.5', '--currency', 'EUR']);
    expect(result.code).toBe(2);
    // Piped, the row's result is data too (as in a bulk run); the error is the one line on stderr.
    expect(JSON.parse(result.stdout)).toMatchObject([{ line: 1, result: 'invalid' }]);
    expect(result.stderr).toBe(`--currency EUR does not match campaign ${target.campaign_id}, which is in USD: leave out --currency to use USD\n`);
    expect(sandbox.stats.writesById.get(target.campaign_id)).toBe(writes);
    // The patches before it are runs kept as history; this one changed nothing and left none.
    expect(journals(user)).toEqual(runs);
  });

  it('a campaign without a budget has no currency to take: --currency is asked for, nothing sent', async () => {
    const target = withoutBudget();
    const result = await user.run(['ads', 'campaigns', 'patch', target.campaign_id, '--budget', '10']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('--currency is required with --budget: there is no amount yet to take it from\n');
    expect(sandbox.stats.writesById.get(target.campaign_id)).toBeUndefined();
  });

  it("an ad group's --bid takes its currency the same way, and refuses another", async () => {
    let found: { campaign: string; group: string } | undefined;
    for (const c of campaigns) {
      const groups = await user.json<Array<{ ad_group_id: string; bidding: { manual?: unknown } }>>(['ads', 'ad-groups', 'list', '--campaign', c.campaign_id]);
      const manual = groups.find((g) => g.bidding.manual);
      if (manual) found = { campaign: c.campaign_id, group: manual.ad_group_id };
      if (found) break;
    }
    const { campaign, group } = found!;
    const ok = await user.run(['ads', 'ad-groups', 'patch', group, '--campaign', campaign, '--bid', '0.75']);
    expect(ok.code, ok.stderr).toBe(0);
    const [after] = await user.json<Array<{ bidding: unknown }>>(['ads', 'ad-groups', 'list', '--campaign', campaign, '--id', group]);
    expect(after!.bidding).toEqual({ manual: { bid_amount: { amount_e5: '75000', currency_code: 'USD' } } });
    const other = await user.run(['ads', 'ad-groups', 'patch', group, '--campaign', campaign, '--bid', '0.80', '--currency', 'GBP']);
    expect(other.code).toBe(2);
    expect(other.stderr).toBe(`--currency GBP does not match ad group ${group}, which is in USD: leave out --currency to use USD\n`);
  });
});

describe('dry run: a person reads decimals and short statuses; machines get exact values', () => {
  it('the table says `50.00 -> 75.50 USD` and `active -> paused`; JSON and CSV keep amount_e5 and the enums', async () => {
    const target = withBudget(3);
    const set = await user.run(['ads', 'campaigns', 'patch', target.campaign_id, '--budget-e5', '5000000', '--currency', 'USD', '--status', 'active']);
    expect(set.code, set.stderr).toBe(0);
    const args = ['ads', 'campaigns', 'patch', target.campaign_id, '--budget', '75.5', '--status', 'paused', '--dry-run'];
    const table = await user.run(args, { tty: true, env: { NO_COLOR: '1' } });
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toContain('status: active -> paused; budget: 50.00 -> 75.50 USD');
    expect(table.stdout).not.toContain('amount_e5');

    const [row] = await user.json<Array<Record<string, unknown>>>(args);
    expect(row).toEqual({
      line: 1,
      id: target.campaign_id,
      result: 'would_update',
      changes: 'configured_status: CAMPAIGN_CONFIGURED_STATUS_ACTIVE -> CAMPAIGN_CONFIGURED_STATUS_PAUSED; budget.total.amount_e5: 5000000 -> 7550000',
    });
    const csv = await user.run([...args, '-o', 'csv']);
    expect(csv.stdout).toContain('budget.total.amount_e5: 5000000 -> 7550000');
    expect(sandbox.stats.writesById.get(target.campaign_id)).toBe(1);
  });
});

describe('a single item keeps its journal only as history or to be resumed', () => {
  it('a patch that changed something is a run kept as history, listed by runs list', async () => {
    const u = new TestUser(sandbox, user.env);
    const target = withBudget(4);
    const result = await u.run(['ads', 'campaigns', 'patch', target.campaign_id, '--name', 'Kept as history']);
    expect(result.code, result.stderr).toBe(0);
    const [journal] = journals(u);
    expect(journal).toBeDefined();
    const listed = await u.json<Array<{ run: string; rows: number }>>(['ads', 'runs', 'list']);
    expect(listed).toMatchObject([{ run: journal!.replace(/\.ndjson$/, ''), rows: 1 }]);
  });

  it('a patch that failed for good (not found) leaves none', async () => {
    const u = new TestUser(sandbox, user.env);
    const result = await u.run(['ads', 'campaigns', 'patch', 'no-such-campaign', '--name', 'x']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^NotFound: /);
    expect(journals(u)).toEqual([]);
  });

  it('a create whose request was never answered keeps its journal and names the command that resumes it', async () => {
    const u = new TestUser(sandbox, user.env);
    sandbox.setFaults({ failRate: 1 });
    try {
      const result = await u.run(['ads', 'campaigns', 'create', '--name', 'Lost answer']);
      expect(result.code).toBe(1);
      const [journal] = journals(u);
      expect(journal).toBeDefined();
      expect(result.stderr).toContain(`it may have been applied: run \`platform ads campaigns create --name 'Lost answer' --resume `);
      expect(result.stderr).toContain(journal);
    } finally {
      sandbox.setFaults({ failRate: 0 });
    }
  });
});
