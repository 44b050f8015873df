// Review, then apply: `--dry-run --plan FILE` writes what a patch would do (the current
// values read, the values to write, the request), and `ads apply FILE` sends it only where
// the resource is still as planned; a row edited by someone else in between is reported
// `conflict` with both values and not sent (exit 1), unless --force.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';
import { e5ToDecimal } from '../../../src/schemas/money.js';

let sandbox: Sandbox;
let user: TestUser;
let campaigns: Campaign[];
const dir = tempDir();

beforeAll(async () => {
  let account: string;
  ({ sandbox, account } = await sandboxWithUser());
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
  campaigns = (await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all'])).filter((c) => c.budget);
});
afterAll(() => sandbox.close());

const read = async (id: string) => (await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--id', id]))[0]!;
const csv = (name: string, rows: string[][]) => {
  const file = path.join(dir, name);
  fs.writeFileSync(file, rows.map((r) => r.join(',')).join('\n') + '\n');
  return file;
};
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const lines = (file: string) =>
  fs
    .readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** A create's plan of campaigns with these names, paused unless said (made with --dry-run --plan). */
const createPlan = async (name: string, names: string[], status = 'paused'): Promise<string> => {
  const plan = path.join(dir, `${name}.ndjson`);
  const input = csv(`${name}.csv`, [['name', 'status'], ...names.map((n) => [n, status])]);
  const made = await user.run(['ads', 'campaigns', 'create', '--from-csv', input, '--dry-run', '--plan', plan]);
  expect(made.code, made.stderr).toBe(0);
  return plan;
};

describe('plan, then apply', () => {
  it('a plan holds per row the current values, the values to write and the request; making it sends nothing', async () => {
    // (one without the response-only budget.cofunding_sources, which `current` would list too)
    const a = campaigns.find((c) => !('cofunding_sources' in c.budget!));
    const plan = path.join(dir, 'one.ndjson');
    const input = csv('one.csv', [
      ['campaign_id', 'name', 'budget'],
      [a!.campaign_id, 'Planned name', '12.5'],
    ]);
    const writes = sandbox.stats.writesById.get(a!.campaign_id);
    const result = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--dry-run', '--plan', plan, '-o', 'json']);
    expect(result.code, result.stderr).toBe(0);
    expect(sandbox.stats.writesById.get(a!.campaign_id)).toBe(writes);
    const [header, row] = lines(plan);
    expect(header).toMatchObject({
      type: 'plan',
      version: 2,
      resource: 'campaigns',
      mode: 'patch',
      scope: { account: user.env.PLATFORM_ACCOUNT },
      target: { origin: new URL(sandbox.url).origin, account: user.env.PLATFORM_ACCOUNT, profile: 'local' },
      batch_size: 500,
      rows: 1,
      rows_sha256: row!.sha256,
    });
    expect(row).toEqual({
      type: 'row',
      line: 2,
      id: a!.campaign_id,
      current: {
        name: a!.name,
        'budget.unit': a!.budget!.unit,
        'budget.total.amount_e5': a!.budget!.total.amount_e5,
        'budget.total.currency_code': a!.budget!.total.currency_code,
      },
      write: {
        name: 'Planned name',
        'budget.unit': a!.budget!.unit,
        'budget.total.amount_e5': '1250000',
        'budget.total.currency_code': a!.budget!.total.currency_code,
      },
      request: {
        campaign_id: a!.campaign_id,
        name: 'Planned name',
        budget: { unit: a!.budget!.unit, total: { amount_e5: '1250000', currency_code: a!.budget!.total.currency_code } },
      },
      key: expect.stringMatching(/^[0-9a-f-]{36}$/),
      sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
    expect(fs.statSync(plan).mode & 0o777).toBe(0o600);
  });

  it('a row whose resource changed since the plan (a field it sets) is not sent: conflict, both values, exit 1; the others are applied', async () => {
    const [, a, b, c] = campaigns;
    const plan = path.join(dir, 'three.ndjson');
    const input = csv('three.csv', [['campaign_id', 'budget'], ...[a!, b!, c!].map((x, i) => [x.campaign_id, String(21 + i)])]);
    expect((await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--dry-run', '--plan', plan])).code).toBe(0);
    // Someone else changes b's budget between the review and the run.
    expect((await user.run(['ads', 'campaigns', 'patch', b!.campaign_id, '--budget-e5', '9900000'])).code).toBe(0);

    // The preview foretells the run's exit code: 1, a row would not be applied.
    const preview = await user.run(['ads', 'apply', plan, '--dry-run', '-o', 'json']);
    expect(preview.code, preview.stderr).toBe(1);
    expect((JSON.parse(preview.stdout) as Array<{ result: string }>).map((r) => r.result)).toEqual(['would_update', 'conflict', 'would_update']);
    expect(preview.stderr).toMatch(
      /^plan sha256:[0-9a-f]{64}\n3 rows: 2 would update, 1 conflict \(dry run: nothing sent\)\n1 of 3 rows would not be applied \(1 conflict\)\n$/,
    );

    // On a terminal, the plan against the current state is a table: the conflict names both amounts.
    const table = await user.run(['ads', 'apply', plan, '--dry-run'], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.stdout).toMatch(/conflict +changed since the plan \(plan -> now\): budget: [\d.]+ [A-Z]{3} -> 99\.00 [A-Z]{3}/);

    const applied = await user.run(['ads', 'apply', plan, '-o', 'json']);
    expect(applied.code).toBe(1);
    const results = JSON.parse(applied.stdout) as Result[];
    expect(results.map((r) => [r.id, r.result])).toEqual([
      [a!.campaign_id, 'ok'],
      [b!.campaign_id, 'conflict'],
      [c!.campaign_id, 'ok'],
    ]);
    // A message in a person's words: the amounts as decimals with their currency (amount_e5 is in the JSON of the items).
    const currency = b!.budget!.total.currency_code;
    expect(results[1]!.error_message).toBe(
      `changed since the plan (plan -> now): budget: ${e5ToDecimal(b!.budget!.total.amount_e5)} ${currency} -> 99.00 ${currency}`,
    );
    expect(applied.stderr).toContain('1 of 3 rows not sent: changed since');
    // b keeps the other person's edit; a and c have the plan's.
    expect((await read(b!.campaign_id)).budget!.total.amount_e5).toBe('9900000');
    expect((await read(a!.campaign_id)).budget!.total.amount_e5).toBe('2100000');
    expect((await read(c!.campaign_id)).budget!.total.amount_e5).toBe('2300000');

    // --force sends it; applying the plan again goes on with its run: the rows it applied are not sent again.
    const forced = await user.run(['ads', 'apply', plan, '--force', '-o', 'json']);
    expect(forced.code, forced.stderr).toBe(0);
    expect((JSON.parse(forced.stdout) as Result[]).map((r) => [r.result, r.error_code])).toEqual([
      ['skipped', 'AlreadyApplied'],
      ['ok', ''],
      ['skipped', 'AlreadyApplied'],
    ]);
    expect((await read(b!.campaign_id)).budget!.total.amount_e5).toBe('2200000');
  });

  it('a change since the plan to a field the row does not set is no conflict', async () => {
    const d = campaigns[4]!;
    const plan = path.join(dir, 'name.ndjson');
    expect((await user.run(['ads', 'campaigns', 'patch', d.campaign_id, '--name', 'Renamed by plan', '--dry-run', '--plan', plan])).code).toBe(0);
    expect((await user.run(['ads', 'campaigns', 'patch', d.campaign_id, '--status', 'paused'])).code).toBe(0);
    const applied = await user.run(['ads', 'apply', plan, '-o', 'json']);
    expect(applied.code, applied.stderr).toBe(0);
    expect(await read(d.campaign_id)).toMatchObject({ name: 'Renamed by plan', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' });
  });

  it('an apply is a journaled run: one whose items failed is finished with --resume JOURNAL, and a second resume sends nothing', async () => {
    const rows = campaigns.slice(6, 9);
    const plan = path.join(dir, 'resume.ndjson');
    const input = csv('resume.csv', [['campaign_id', 'name'], ...rows.map((c, i) => [c.campaign_id, `Resumed ${i}`])]);
    expect((await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--dry-run', '--plan', plan])).code).toBe(0);
    sandbox.setFaults({ itemFailRate: 1 });
    let failed;
    try {
      failed = await user.run(['ads', 'apply', plan, '-o', 'json']);
    } finally {
      sandbox.setFaults({ itemFailRate: 0 });
    }
    expect(failed.code).toBe(1);
    expect((JSON.parse(failed.stdout) as Result[]).map((r) => r.result)).toEqual(['failed', 'failed', 'failed']);
    const journal = /Journal: (.*)\n/.exec(failed.stderr)![1]!;
    const resumed = await user.run(['ads', 'apply', plan, '--resume', journal, '-o', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as Result[]).map((r) => r.result)).toEqual(['ok', 'ok', 'ok']);
    const writes = rows.map((c) => sandbox.stats.writesById.get(c.campaign_id));
    const again = await user.run(['ads', 'apply', plan, '--resume', journal, '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect((JSON.parse(again.stdout) as Result[]).map((r) => r.error_code)).toEqual(['AlreadyApplied', 'AlreadyApplied', 'AlreadyApplied']);
    expect(rows.map((c) => sandbox.stats.writesById.get(c.campaign_id))).toEqual(writes);
    expect((await read(rows[2]!.campaign_id)).name).toBe('Resumed 2');
  });

  it("a create's plan holds its requests (no current values) and apply creates them", async () => {
    const plan = path.join(dir, 'create.ndjson');
    const input = csv('create.csv', [
      ['name', 'status'],
      ['Planned new A', 'paused'],
      ['Planned new B', 'active'],
    ]);
    expect((await user.run(['ads', 'campaigns', 'create', '--from-csv', input, '--dry-run', '--plan', plan])).code).toBe(0);
    const [header, ...rows] = lines(plan);
    expect(header).toMatchObject({ resource: 'campaigns', mode: 'create' });
    expect(rows.map((r) => [r.id, r.current, (r.request as { name: string }).name])).toEqual([
      ['', undefined, 'Planned new A'],
      ['', undefined, 'Planned new B'],
    ]);
    const applied = await user.run(['ads', 'apply', plan, '-o', 'json']);
    expect(applied.code, applied.stderr).toBe(0);
    const ids = (JSON.parse(applied.stdout) as Result[]).map((r) => r.id);
    expect((await read(ids[0]!)).configured_status).toBe('CAMPAIGN_CONFIGURED_STATUS_PAUSED');
    expect((await read(ids[1]!)).name).toBe('Planned new B');
  });

  it('a plan is applied once: an apply that ended well is in the ledger, and applying the plan again (or its dry run) is refused naming the run, exit 2', async () => {
    // Behaviour of issue #42: a second apply of a plan applied whole used to go on with its run (every row AlreadyApplied, exit 0).
    const names = ['Applied once A', 'Applied once B', 'Applied once C'];
    const plan = await createPlan('once', names);
    const first = await user.run(['ads', 'apply', plan, '-o', 'json']);
    expect(first.code, first.stderr).toBe(0);
    const created = (JSON.parse(first.stdout) as Result[]).map((r) => r.id);
    const run = /Journal: .*-([0-9a-f]{8})\.ndjson\n/.exec(first.stderr)![1]!;
    const hash = /^plan sha256:([0-9a-f]{64})\n/.exec(first.stderr)![1]!;

    const requests = sandbox.stats.apiRequests;
    for (const args of [[], ['--dry-run'], ['--journal', path.join(dir, 'once.journal')]]) {
      const again = await user.run(['ads', 'apply', plan, ...args, '-o', 'json']);
      expect(again.code, again.stderr).toBe(2);
      expect(again.stdout).toBe('');
      expect(again.stderr).toMatch(
        new RegExp(
          `^plan sha256:${hash}\n${escape(plan)} \\(sha256:${hash.slice(0, 12)}…\\) was applied on \\S+ by run ${run} \\(profile local\\); ` +
            'a plan is applied once: to apply its changes again, add --again \\(a new plan with new idempotency keys\\)\n$',
        ),
      );
    }
    expect(sandbox.stats.apiRequests - requests).toBe(0);
    const all = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
    expect(names.map((name) => all.filter((c) => c.name === name).map((c) => c.campaign_id))).toEqual(created.map((id) => [id]));
  });

  it('an apply that stopped (its items failed) is not in the ledger: applying the plan again goes on with its run, also one given --journal elsewhere', async () => {
    const names = ['Journal elsewhere A', 'Journal elsewhere B'];
    const plan = await createPlan('elsewhere', names);
    const journal = path.join(dir, 'elsewhere.journal.ndjson');
    sandbox.setFaults({ itemFailRate: 1 });
    let first;
    try {
      first = await user.run(['ads', 'apply', plan, '--journal', journal, '-o', 'json']);
    } finally {
      sandbox.setFaults({ itemFailRate: 0 });
    }
    expect(first.code).toBe(1);
    expect((JSON.parse(first.stdout) as Result[]).map((r) => r.result)).toEqual(['failed', 'failed']);

    const again = await user.run(['ads', 'apply', plan, '-o', 'json']);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toContain(`${plan} was applied by run elsewhe`);
    expect((JSON.parse(again.stdout) as Result[]).map((r) => r.result)).toEqual(['ok', 'ok']);
    const all = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
    expect(names.map((name) => all.filter((c) => c.name === name).length)).toEqual([1, 1]);
    // That apply ended well: now the plan is in the ledger.
    const third = await user.run(['ads', 'apply', plan]);
    expect(third.code).toBe(2);
    expect(third.stderr).toContain(`by run elsewhere.journal (profile local)`);
  });

  it('a plan whose apply was undone is not applied again (the undone run is not resumed): exit 2, nothing sent', async () => {
    const plan = await createPlan('undone', ['Undone A', 'Undone B'], 'active');
    const applied = await user.run(['ads', 'apply', plan, '-o', 'json']);
    expect(applied.code, applied.stderr).toBe(0);
    const run = /Journal: .*-([0-9a-f]{8})\.ndjson\n/.exec(applied.stderr)![1]!;
    const undo = await user.run(['ads', 'runs', 'undo', run, '-o', 'json']);
    expect(undo.code, undo.stderr).toBe(0);
    const undoRun = /Journal: .*-([0-9a-f]{8})\.ndjson\n/.exec(undo.stderr)![1]!;

    const requests = sandbox.stats.apiRequests;
    for (const args of [[], ['--dry-run']]) {
      const again = await user.run(['ads', 'apply', plan, ...args]);
      expect(again.code, again.stderr).toBe(2);
      expect(again.stderr).toMatch(
        new RegExp(
          `^plan sha256:[0-9a-f]{64}\n${escape(plan)} \\(sha256:[0-9a-f]{12}…\\) was applied on \\S+ by run ${run} \\(profile local\\), which run ${undoRun} undid; `,
        ),
      );
      expect(again.stderr).toContain('to apply its changes again, add --again');
    }
    expect(sandbox.stats.apiRequests - requests).toBe(0);
    const all = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
    expect(all.filter((c) => c.name.startsWith('Undone ')).map((c) => c.configured_status)).toEqual([
      'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      'CAMPAIGN_CONFIGURED_STATUS_PAUSED',
    ]);
  });

  it('with no runs directory to write (its path is a file), each row of the plan is reported not sent, and why (exit 1)', async () => {
    const plan = await createPlan('nowhere', ['Never sent A', 'Never sent B']);
    const notADirectory = csv('state-is-a-file', [['x']]);
    const applied = await user.run(['ads', 'apply', plan, '-o', 'json'], { env: { XDG_STATE_HOME: notADirectory } });
    expect(applied.code).toBe(1);
    expect((JSON.parse(applied.stdout) as Result[]).map((r) => [r.result, r.error_code])).toEqual([
      ['skipped', 'NotSent'],
      ['skipped', 'NotSent'],
    ]);
    expect(applied.stderr).toMatch(/could not be written \(ENOTDIR/);
    const all = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
    expect(all.filter((c) => c.name.startsWith('Never sent'))).toEqual([]);
  });

  it("each shard of a plan is a run of its own, split by the plan's requests; a shard applied is not applied again, nor the whole plan once every shard was", async () => {
    const names = Array.from({ length: 8 }, (_, i) => `Sharded plan ${i}`);
    // One row per request (--batch-size 1): the shards split the plan's eight requests.
    const input = csv('shards.csv', [['name', 'status'], ...names.map((n) => [n, 'paused'])]);
    const plan = path.join(dir, 'shards.ndjson');
    expect((await user.run(['ads', 'campaigns', 'create', '--from-csv', input, '--batch-size', '1', '--dry-run', '--plan', plan])).code).toBe(0);
    const apply = async (shard: string) => {
      const result = await user.run(['ads', 'apply', plan, '--shard', shard, '-o', 'json']);
      expect(result.code, result.stderr).toBe(0);
      return (JSON.parse(result.stdout) as Result[]).map((r) => [r.id, r.result]);
    };
    const zero = await apply('0/2');
    const one = await apply('1/2');
    expect(zero.length + one.length).toBe(8);
    expect(zero.length * one.length).toBeGreaterThan(0);
    expect([...zero, ...one].every(([, result]) => result === 'ok')).toBe(true);
    // Behaviour of issue #42: a shard applied whole is in the ledger (it used to go on with its run, every row skipped).
    const again = await user.run(['ads', 'apply', plan, '--shard', '0/2']);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/was applied \(--shard 0\/2\) on \S+ by run [0-9a-f]{8} /);
    // Every shard of 2 applied: the whole plan was.
    const whole = await user.run(['ads', 'apply', plan]);
    expect(whole.code).toBe(2);
    expect(whole.stderr).toMatch(/was applied \(--shard [01]\/2\) on /);
    // Shards of another count share rows with those runs: refused.
    const refused = await user.run(['ads', 'apply', plan, '--shard', '1/3']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^--shard: .* shares rows with run [0-9a-f]{8}, which applied the plan with --shard [01]\/2: apply it as that run did/m);
    const all = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all']);
    expect(names.map((name) => all.filter((c) => c.name === name).length)).toEqual(names.map(() => 1));
  });

  it('--plan without --dry-run, or naming the input, and a file that is not a plan, are refused naming them (exit 2, nothing sent)', async () => {
    const e = campaigns[5]!;
    const noDry = await user.run(['ads', 'campaigns', 'patch', e.campaign_id, '--name', 'x', '--plan', path.join(dir, 'p.ndjson')]);
    expect(noDry.code).toBe(2);
    expect(noDry.stderr).toMatch(/^--plan .*--dry-run/);
    const notPlan = csv('not-a-plan.ndjson', [['{"type":"run"}']]);
    const refused = await user.run(['ads', 'apply', notPlan]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${notPlan} is not a plan`);
    // A plan that cannot be written is found before the dry run reads anything.
    sandbox.stats.requests.length = 0;
    const nowhere = path.join(dir, 'no-such-folder', 'p.ndjson');
    const unwritable = await user.run(['ads', 'campaigns', 'patch', e.campaign_id, '--name', 'x', '--dry-run', '--plan', nowhere]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr.trim()).toBe(`--plan: cannot write ${nowhere} (ENOENT)`);
    const folder = await user.run(['ads', 'campaigns', 'patch', e.campaign_id, '--name', 'x', '--dry-run', '--plan', dir]);
    expect(folder.code).toBe(2);
    expect(folder.stderr.trim()).toBe(`--plan: ${dir} is a directory`);
    // The input itself, by its name or another (a typo that would have replaced it with the plan): kept.
    const input = csv('input.csv', [
      ['campaign_id', 'name'],
      [e.campaign_id, 'x'],
    ]);
    fs.linkSync(input, path.join(dir, 'input-link.csv'));
    for (const plan of [input, path.join(dir, '.', 'input-link.csv')]) {
      const itself = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--dry-run', '--plan', plan]);
      expect(itself.code).toBe(2);
      expect(itself.stderr).toBe(`--plan: ${plan} is the input (--from-csv); name another file for the plan\n`);
    }
    expect(fs.readFileSync(input, 'utf8')).toBe(`campaign_id,name\n${e.campaign_id},x\n`);
    // Nor stdout: a file named - would be written.
    const dash = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--dry-run', '--plan', '-']);
    expect([dash.code, dash.stderr]).toEqual([2, '--plan: give a file name (the plan is applied from it with platform ads apply FILE), not -\n']);
    const stdin = await user.run(['ads', 'apply', '-'], { stdin: fs.readFileSync(input, 'utf8') });
    expect([stdin.code, stdin.stderr]).toEqual([2, 'PLAN: give the plan file that --dry-run --plan wrote (it is read twice, so not from stdin), not -\n']);
    const journal = await user.run(['ads', 'campaigns', 'patch', '--from-csv', input, '--journal', '-']);
    expect([journal.code, journal.stderr]).toEqual([2, '--journal: give a file name (the run is resumed from it with --resume FILE), not -\n']);
    expect(sandbox.stats.requests.map((r) => `${r.method} ${r.path}`)).toEqual([]);
    expect(sandbox.stats.writesById.get(e.campaign_id)).toBeUndefined();
  });
});
