// Run history as a person reads it (#43, units where people read): `runs list` is newest
// first and the current profile's runs (`--all-profiles` for every profile's); an undo's
// conflicts and dry runs show amounts as decimals with their currency, never amount_e5
// (which stays in the JSON of the items and in CSV).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxWithUser, TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let user: TestUser;
let campaigns: Campaign[];

beforeAll(async () => {
  let account: string;
  ({ sandbox, account } = await sandboxWithUser());
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account, PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
  campaigns = (await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all'])).filter((c) => c.budget?.total.currency_code === 'USD');
  expect(campaigns.length).toBeGreaterThan(5);
});
afterAll(() => sandbox.close());

interface RunRow {
  run: string;
  command: string;
  profile: string;
}
const runs = (...args: string[]) => user.json<RunRow[]>(['ads', 'runs', 'list', ...args]);
const patch = async (...args: string[]) => {
  const result = await user.run(['ads', 'campaigns', 'patch', ...args]);
  expect(result.code, result.stderr).toBe(0);
};

describe('runs list', () => {
  it("is newest first, the current profile's runs only; --all-profiles lists every profile's", async () => {
    const [a, b, c] = campaigns;
    await patch(a!.campaign_id, '--name', 'First');
    await patch(b!.campaign_id, '--name', 'Second');
    const login = await user.run(['auth', 'login', '--client-credentials', '--profile', 'other', '--client-id', SANDBOX_DEMO_CLIENT_ID]);
    expect(login.code, login.stderr).toBe(0);
    await patch(c!.campaign_id, '--name', 'Third', '--profile', 'other');

    const local = await user.run(['ads', 'runs', 'list', '--profile', 'local', '--json']);
    expect(local.code, local.stderr).toBe(0);
    const listed = JSON.parse(local.stdout) as RunRow[];
    expect(listed.map((r) => [r.profile, r.command])).toEqual([
      ['local', `ads campaigns patch ${b!.campaign_id} --name Second`],
      ['local', `ads campaigns patch ${a!.campaign_id} --name First`],
    ]);
    expect(local.stderr).toBe('1 run of other profiles not listed: add --all-profiles\n');

    const other = await runs('--profile', 'other');
    expect(other.map((r) => r.command)).toEqual([`ads campaigns patch ${c!.campaign_id} --name Third --profile other`]);

    const every = await runs('--all-profiles', '--profile', 'local');
    expect(every.map((r) => r.profile)).toEqual(['other', 'local', 'local']);
    // -L N: the newest N.
    expect((await runs('--all-profiles', '-L', '1')).map((r) => r.profile)).toEqual(['other']);

    // A table too: the newest run on the first line under the header.
    const table = await user.run(['ads', 'runs', 'list', '--profile', 'local'], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    const lines = table.stdout.split('\n');
    const at = (run: RunRow) => lines.findIndex((line) => line.startsWith(`${run.run.slice(-8)} `));
    expect(at(listed[0]!)).toBe(1);
    expect(at(listed[1]!)).toBeGreaterThan(1);
  });
});

describe('money in run messages', () => {
  it('an undo dry run and its conflicts show decimals with the currency, not amount_e5', async () => {
    const [, , , target, other] = campaigns;
    await patch(target!.campaign_id, '--budget', '455', '--profile', 'local');
    await patch(other!.campaign_id, '--budget', '12.5', '--profile', 'local');
    // Newest first: the second budget's run, then the first's.
    const [run, first] = await runs('--profile', 'local', '-L', '2');
    // Someone changes the first campaign's budget after the run.
    await patch(target!.campaign_id, '--budget', '55.55', '--profile', 'local');

    // The dry run of the first run's undo: the conflict in decimals, on a terminal and in JSON.
    const dry = await user.run(['ads', 'runs', 'undo', first!.run, '--dry-run', '--profile', 'local'], { tty: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(dry.code).toBe(1);
    expect(dry.stdout).toContain('changed since the run (run wrote -> now): budget: 455.00 USD -> 55.55 USD');
    expect(dry.stdout).not.toContain('amount_e5');

    // The second run's undo: the dry run's table says what goes back, in decimals.
    const back = await user.run(['ads', 'runs', 'undo', run!.run, '--dry-run', '--profile', 'local'], { tty: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(back.code, back.stderr).toBe(0);
    const was = other!.budget!.total;
    expect(back.stdout).toMatch(new RegExp(`would_update +budget: 12\\.50 -> ${(Number(was.amount_e5) / 1e5).toFixed(2).replace('.', '\\.')}\\d* USD`));

    // The undo itself: the conflict's message in decimals, in the results as on the terminal.
    const undo = await user.run(['ads', 'runs', 'undo', first!.run, '-o', 'json', '--profile', 'local']);
    expect(undo.code).toBe(1);
    const [result] = JSON.parse(undo.stdout) as Result[];
    expect([result!.result, result!.error_message]).toEqual(['conflict', 'changed since the run (run wrote -> now): budget: 455.00 USD -> 55.55 USD']);
    expect(undo.stderr).not.toContain('amount_e5');

    // runs show: decimals on a terminal; JSON keeps the API's exact values.
    const shown = await user.run(['ads', 'runs', 'show', first!.run, '--profile', 'local'], { tty: true, columns: 200, env: { NO_COLOR: '1' } });
    expect(shown.stdout).toContain('-> 455.00 USD');
    // -o text (for scripts, read by people too): decimals as well; CSV keeps the exact values.
    const text = await user.run(['ads', 'runs', 'show', first!.run, '--profile', 'local', '-o', 'text']);
    expect(text.stdout).toContain('-> 455.00 USD');
    expect(text.stdout).not.toContain('amount_e5');
    const backText = await user.run(['ads', 'runs', 'undo', run!.run, '--dry-run', '--profile', 'local', '-o', 'text']);
    expect(backText.stdout).toMatch(/\twould_update\tbudget: 12\.50 -> [\d.]+ USD\n$/);
    const csv = await user.run(['ads', 'runs', 'show', first!.run, '--profile', 'local', '-o', 'csv']);
    expect(csv.stdout).toContain('budget.total.amount_e5: ');
    const json = await user.json<Array<{ after: unknown }>>(['ads', 'runs', 'show', first!.run, '--profile', 'local']);
    expect(json[0]!.after).toMatchObject({ budget: { total: { amount_e5: '45500000' } } });
  });
});
