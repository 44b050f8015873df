// Change history and undo: every write run keeps what it replaced in its journal, which stays
// in the runs directory (runs list, runs show) until runs prune; runs undo restores the old
// values where the resource still has what the run wrote, reports the others `conflict`, and
// is a run itself, so undoing the undo restores the run's values.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';
import fs from 'node:fs';
import { scaled } from '../../helpers/time-scale.js';
import { waitFor } from '../../helpers/wait.js';
import { listRuns } from '../../../src/bulk/runs/runs.js';

let sandbox: Sandbox;
let user: TestUser;
const dir = tempDir();
const ROWS = 2_000;

beforeAll(async () => {
  let account: string;
  ({ sandbox, account } = await sandboxWithUser({ campaigns: ROWS * 2 }));
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
});
afterAll(() => sandbox.close());

interface RunRow {
  run: string;
  started: string;
  running: boolean;
  status: string;
  unfinished: number | null;
  rows: number;
  profile: string;
  command: string;
  undoes: string;
  mode: string;
  resource: string;
}

const all = async () => new Map((await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--all'])).map((c) => [c.campaign_id, c]));
/** What a write can set (the response-only budget.cofunding_sources cannot be written back, so is left out). */
const writable = (c: Campaign) => ({
  name: c.name,
  configured_status: c.configured_status,
  budget: c.budget ? { unit: c.budget.unit, total: c.budget.total } : undefined,
});
const runs = () => user.json<RunRow[]>(['ads', 'runs', 'list']);
const journalOf = (stderr: string) => path.basename(/Journal: (.*)\n/.exec(stderr)![1]!, '.ndjson');

describe(`undo of a ${ROWS}-row patch`, { timeout: scaled(120_000) }, () => {
  it('restores every field exactly, leaves a row edited since as a conflict, and undo of the undo restores the patch', async () => {
    const before = await all();
    // Campaigns with a budget (one without gets back to none: see below).
    const targets = [...before.values()].filter((c) => c.budget).slice(0, ROWS);
    expect(targets).toHaveLength(ROWS);
    // Names, statuses and budgets (a nested object, replaced whole; some campaigns had none).
    const csv = path.join(dir, 'patch.csv');
    fs.writeFileSync(
      csv,
      'campaign_id,name,status,budget,currency,budget_unit\n' +
        targets.map((c, i) => `${c.campaign_id},Patched ${i},${i % 2 ? 'paused' : 'active'},${(i % 90) + 10}.25,USD,weekly`).join('\n') +
        '\n',
    );
    const patch = await user.run(['ads', 'campaigns', 'patch', '--from-csv', csv, '-o', 'ndjson']);
    expect(patch.code, patch.stderr).toBe(0);
    const run = journalOf(patch.stderr);
    const patched = await all();

    const listed = (await runs()).find((r) => r.run === run)!;
    expect(listed).toMatchObject({ rows: ROWS, mode: 'patch', resource: 'campaigns', profile: 'local', undoes: '', status: 'done', unfinished: 0 });
    expect(listed.command).toBe(`ads campaigns patch --from-csv ${csv} -o ndjson`);

    const shown = await user.json<Array<{ id: string; result: string; changes: string; before: unknown; after: unknown }>>(['ads', 'runs', 'show', run]);
    expect(shown).toHaveLength(ROWS);
    const first = targets[0]!;
    expect(shown[0]).toMatchObject({ id: first.campaign_id, result: 'ok' });
    expect(shown[0]!.changes).toContain(`name: ${first.name} -> Patched 0`);

    // Someone renames one campaign after the run.
    const edited = targets[7]!.campaign_id;
    expect((await user.run(['ads', 'campaigns', 'patch', edited, '--name', 'Edited since'])).code).toBe(0);

    const preview = await user.run(['ads', 'runs', 'undo', run, '--dry-run', '-o', 'json']);
    expect(preview.code, preview.stderr).toBe(1);
    expect(preview.stderr).toContain(`${ROWS} rows: ${ROWS - 1} would update, 1 conflict (dry run: nothing sent)`);
    expect(sandbox.stats.writesById.get(targets[0]!.campaign_id)).toBe(1);

    const undo = await user.run(['ads', 'runs', 'undo', run, '-o', 'ndjson']);
    expect(undo.code).toBe(1);
    const results = undo.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Result);
    expect(results).toHaveLength(ROWS);
    const conflicts = results.filter((r) => r.result === 'conflict');
    expect(conflicts.map((r) => r.id)).toEqual([edited]);
    expect(conflicts[0]!.error_message).toBe('changed since the run (run wrote -> now): name: Patched 7 -> Edited since');
    expect(results.filter((r) => r.result === 'ok')).toHaveLength(ROWS - 1);

    const undone = await all();
    for (const c of targets) {
      if (c.campaign_id === edited) expect(undone.get(edited)!.name).toBe('Edited since');
      else expect(writable(undone.get(c.campaign_id)!)).toEqual(writable(c));
    }

    // The undo is a run: listed as such, and undone in turn.
    const undoRun = journalOf(undo.stderr);
    // It ended with a row not restored (the conflict): failed, that one row unfinished.
    expect((await runs()).find((r) => r.run === undoRun)).toMatchObject({ undoes: run, rows: ROWS, mode: 'patch', status: 'failed', unfinished: 1 });
    const redo = await user.run(['ads', 'runs', 'undo', undoRun, '-o', 'ndjson']);
    expect(redo.code, redo.stderr).toBe(0);
    const redone = await all();
    for (const c of targets) {
      if (c.campaign_id === edited) expect(redone.get(edited)!.name).toBe('Edited since');
      else expect(writable(redone.get(c.campaign_id)!)).toEqual(writable(patched.get(c.campaign_id)!));
    }
  });
});

describe('every write run is kept', () => {
  it('a single-item patch is a run: listed with one row, shown old -> new, undone', async () => {
    const target = [...(await all()).values()].filter((c) => c.budget).at(-1)!;
    const set = await user.run(['ads', 'campaigns', 'patch', target.campaign_id, '--name', 'One change']);
    expect(set.code, set.stderr).toBe(0);
    const newest = (await runs())[0]!;
    expect(newest).toMatchObject({ rows: 1, command: `ads campaigns patch ${target.campaign_id} --name 'One change'` });
    // At 80 columns a run is its last part (which RUN takes) and the minute it started; PROFILE and ROWS may be left out.
    const short = newest.run.slice(-8);
    const listed = await user.run(['ads', 'runs', 'list'], { tty: true, columns: 80, env: { NO_COLOR: '1' } });
    const started = newest.started.slice(0, 16).replace('T', ' ');
    expect(listed.stdout.split('\n').find((l) => l.startsWith(`${short} `))).toMatch(
      new RegExp(`^${short} +${started}Z +(1 +)?done +(local +)?ads campaigns patch`),
    );
    const table = await user.run(['ads', 'runs', 'show', short], { tty: true, env: { NO_COLOR: '1' } });
    expect(table.stdout).toContain(`name: ${target.name} -> One change`);
    expect((await user.run(['ads', 'runs', 'undo', newest.run])).code).toBe(0);
    expect((await all()).get(target.campaign_id)!.name).toBe(target.name);
    // Undone already: a retry of the undo (a script's) has nothing to do, exit 0, no run made.
    const count = (await runs()).length;
    const writes = sandbox.stats.writesById.get(target.campaign_id);
    const retry = await user.run(['ads', 'runs', 'undo', newest.run]);
    const undoRun = (await runs())[0]!.run.slice(-8);
    expect([retry.code, retry.stderr]).toEqual([0, `Nothing to undo: run ${newest.run} was undone by run ${undoRun}\n`]);
    expect(sandbox.stats.writesById.get(target.campaign_id)).toBe(writes);
    expect(await runs()).toHaveLength(count);

    // -L N: the newest N, in the list's order, newest first (the undo just made is the first).
    const every = await runs();
    expect(every.length).toBeGreaterThan(2);
    const lastTwo = await user.json<RunRow[]>(['ads', 'runs', 'list', '-L', '2']);
    expect(lastTwo.map((r) => r.run)).toEqual(every.slice(0, 2).map((r) => r.run));
    expect(lastTwo[0]!.command).toBe(`ads runs undo ${newest.run}`);
    const none = await user.run(['ads', 'runs', 'list', '--limit', '0']);
    expect([none.code, none.stderr]).toEqual([2, '--limit must be 1 or more\n']);

    // A command line longer than a disk block (a long --query) is kept whole, and the run listed and undone.
    const query = `[].{id: id, note: '${'x'.repeat(3000)}'}`;
    expect((await user.run(['ads', 'campaigns', 'patch', target.campaign_id, '--name', 'Long command', '--query', query])).code).toBe(0);
    const long = (await runs())[0]!;
    expect(long.command).toMatch(new RegExp(`^ads campaigns patch ${target.campaign_id} --name 'Long command' --query .*x{3000}`));
    expect((await user.run(['ads', 'runs', 'undo', long.run])).code).toBe(0);
    expect((await all()).get(target.campaign_id)!.name).toBe(target.name);
  });

  it('a row whose budget was absent before the run is restored to absent (sent as {}, which the API reads as remove); the others are undone', async () => {
    const [none, some] = [[...(await all()).values()].filter((c) => !c.budget).at(-1)!, [...(await all()).values()].filter((c) => c.budget).at(-2)!];
    const csv = path.join(dir, 'mixed.csv');
    fs.writeFileSync(csv, `campaign_id,budget,currency,budget_unit\n${none.campaign_id},5,USD,daily\n${some.campaign_id},6,USD,daily\n`);
    const patch = await user.run(['ads', 'campaigns', 'patch', '--from-csv', csv]);
    expect(patch.code, patch.stderr).toBe(0);
    const undo = await user.run(['ads', 'runs', 'undo', journalOf(patch.stderr), '-o', 'json']);
    expect(undo.code, undo.stderr).toBe(0);
    expect((JSON.parse(undo.stdout) as Result[]).map((r) => [r.result, r.error_message])).toEqual([
      ['ok', ''],
      ['ok', ''],
    ]);
    expect(writable((await all()).get(none.campaign_id)!)).toEqual(writable(none));
    expect(writable((await all()).get(some.campaign_id)!)).toEqual(writable(some));
  });

  it('a campaign a run changed twice is undone once: back to what the first change replaced', async () => {
    const target = [...(await all()).values()].filter((c) => c.budget).at(-3)!;
    const csv = path.join(dir, 'twice.csv');
    fs.writeFileSync(csv, `campaign_id,name,budget\n${target.campaign_id},Twice 1,\n${target.campaign_id},Twice 2,7.5\n`);
    const patch = await user.run(['ads', 'campaigns', 'patch', '--from-csv', csv]);
    expect(patch.code, patch.stderr).toBe(0);
    expect((await all()).get(target.campaign_id)).toMatchObject({ name: 'Twice 2', budget: { total: { amount_e5: '750000' } } });
    const undo = await user.run(['ads', 'runs', 'undo', journalOf(patch.stderr), '-o', 'json']);
    expect(undo.code, undo.stderr).toBe(0);
    expect((JSON.parse(undo.stdout) as Result[]).map((r) => [r.line, r.result])).toEqual([[2, 'ok']]);
    expect(writable((await all()).get(target.campaign_id)!)).toEqual(writable(target));
  });

  it("an ad group's targeting, bid and schedule come back exactly as they were (response spellings sent back as input)", async () => {
    const campaign = [...(await all()).values()][0]!.campaign_id;
    const groups = await user.json<Array<Record<string, unknown> & { ad_group_id: string; targeting?: unknown }>>([
      'ads',
      'ad-groups',
      'list',
      '--campaign',
      campaign,
    ]);
    const group = groups.find((g) => g.targeting) ?? groups[0]!;
    const args = [
      'ads',
      'ad-groups',
      'patch',
      group.ad_group_id,
      '--campaign',
      campaign,
      '--keywords',
      'undo,me',
      '--match-type',
      'broad',
      '--end',
      '2031-01-01T00:00:00Z',
    ];
    const patch = await user.run(args);
    expect(patch.code, patch.stderr).toBe(0);
    const [patched] = await user.json<Array<Record<string, unknown>>>(['ads', 'ad-groups', 'list', '--campaign', campaign, '--id', group.ad_group_id]);
    expect(patched!.targeting).not.toEqual(group.targeting);
    expect(patched!.schedule).not.toEqual(group.schedule);
    const newest = (await runs())[0]!;
    expect(newest.resource).toBe('ad_groups');
    const undo = await user.run(['ads', 'runs', 'undo', newest.run, '-o', 'json']);
    expect(undo.code, undo.stderr).toBe(0);
    const [after] = await user.json<Array<Record<string, unknown>>>(['ads', 'ad-groups', 'list', '--campaign', campaign, '--id', group.ad_group_id]);
    for (const key of ['name', 'configured_status', 'budget', 'bidding', 'targeting', 'schedule', 'dayparting_schedule', 'subjects'])
      expect(after![key], key).toEqual(group[key]);
  });

  it("a create's undo pauses what it created (the API has no delete)", async () => {
    const created = await user.run(['ads', 'campaigns', 'create', '--name', 'Made to be undone', '--status', 'active', '-o', 'json']);
    expect(created.code, created.stderr).toBe(0);
    const [row] = JSON.parse(created.stdout) as Result[];
    const newest = (await runs())[0]!;
    expect(newest.mode).toBe('create');
    const undo = await user.run(['ads', 'runs', 'undo', newest.run, '-o', 'json']);
    expect(undo.code, undo.stderr).toBe(0);
    expect((await all()).get(row!.id)).toMatchObject({ name: 'Made to be undone', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' });
  });

  it('of two undos of one run at once, the second is refused naming the first (its run and process), not the run', async () => {
    const targets = [...(await all()).values()].slice(0, 40);
    const csv = path.join(dir, 'twice.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${targets.map((c, i) => `${c.campaign_id},Undone twice ${i}`).join('\n')}\n`);
    const patch = await user.run(['ads', 'campaigns', 'patch', '--from-csv', csv, '-o', 'ndjson']);
    expect(patch.code, patch.stderr).toBe(0);
    const run = journalOf(patch.stderr);
    const runsDir = path.join(user.configDir, '.local/state/platform/runs');
    // Slow answers (what the test is about: the first undo is still sending when the second starts).
    sandbox.setFaults({ latencyMs: 20 });
    try {
      const first = user.run(['ads', 'runs', 'undo', run, '--batch-size', '1', '--concurrency', '1', '-o', 'ndjson']);
      const undoRun = await waitFor(() => listRuns(runsDir).find((r) => r.running && r.record.undoes === run)?.run, {
        what: 'the first undo to start its run',
        state: () => listRuns(runsDir).map((r) => `${r.run} ${r.status}`),
      });
      const second = await user.run(['ads', 'runs', 'undo', run]);
      expect(second.code).toBe(2);
      expect(second.stderr).toMatch(
        new RegExp(`^RUN: ${run} is already being undone by run ${undoRun.slice(-8)} \\(pid ${process.pid}, started [^)]+\\); wait for that undo to end\n$`),
      );
      const done = await first;
      expect(done.code, done.stderr).toBe(0);
    } finally {
      sandbox.setFaults({ latencyMs: 0 });
    }
  });

  it('an undo names the run it undid by name and start: another journal of the same name elsewhere is not taken as undone', async () => {
    const [first, second] = [...(await all()).values()].slice(-2);
    const journals = ['a', 'b'].map((folder) => {
      fs.mkdirSync(path.join(dir, folder), { recursive: true });
      return path.join(dir, folder, 'run.ndjson');
    });
    for (const [i, c] of [first!, second!].entries()) {
      const patched = await user.run(['ads', 'campaigns', 'patch', c.campaign_id, '--name', `Same journal name ${i}`, '--journal', journals[i]!]);
      expect(patched.code, patched.stderr).toBe(0);
    }
    const undo = await user.run(['ads', 'runs', 'undo', journals[0]!]);
    expect(undo.code, undo.stderr).toBe(0);
    // The first is undone: not resumed. The second, of the same name but started before that undo, is not.
    const refused = await user.run(['ads', 'campaigns', 'patch', first!.campaign_id, '--name', 'Same journal name 0', '--resume', journals[0]!]);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringMatching(/^--resume: run run was undone by run \w{8}, so it is not resumed/)]);
    const resumed = await user.run(['ads', 'campaigns', 'patch', second!.campaign_id, '--name', 'Same journal name 1', '--resume', journals[1]!, '-o', 'json']);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect((JSON.parse(resumed.stdout) as Result[]).map((r) => [r.id, r.result, r.error_code])).toEqual([[second!.campaign_id, 'skipped', 'AlreadyApplied']]);
  });

  it('runs prune removes runs by age (against the clock) or count', async () => {
    const count = (await runs()).length;
    expect(count).toBeGreaterThan(2);
    const kept = await user.run(['ads', 'runs', 'prune', '--older-than', '30']);
    expect(kept.code, kept.stderr).toBe(0);
    expect(await runs()).toHaveLength(count);
    const later = { now: () => Date.now() + 31 * 24 * 3600 * 1000, sleep: user.clock.sleep };
    const keepTwo = await user.run(['ads', 'runs', 'prune', '--keep', '2']);
    expect(keepTwo.stderr).toBe(`Removed ${count - 2} runs\n`);
    expect(await runs()).toHaveLength(2);
    // A run still going (a live process holds its journal's lock) is listed as running and never pruned.
    const [going, done] = await runs();
    const journal = path.join(user.configDir, '.local/state/platform/runs', `${going!.run}.ndjson`);
    const lockStarted = new Date().toISOString();
    fs.writeFileSync(`${journal}.lock`, JSON.stringify({ pid: process.pid, started: lockStarted }));
    expect((await runs()).map((r) => [r.run, r.running])).toEqual([
      [going!.run, true],
      [done!.run, false],
    ]);
    // Nor undone while it goes (exit 2, nothing sent), and its lock is left to it.
    const early = await user.run(['ads', 'runs', 'undo', going!.run]);
    expect(early.code).toBe(2);
    expect(early.stderr).toBe(`RUN: ${going!.run} is still going (pid ${process.pid}, started ${lockStarted}); undo it once it has ended\n`);
    expect(fs.existsSync(`${journal}.lock`)).toBe(true);
    // Held by an undo of it that has no run yet (its journal not made yet): named by its process.
    fs.writeFileSync(`${journal}.lock`, JSON.stringify({ pid: process.pid, started: lockStarted, undo: true }));
    const twice = await user.run(['ads', 'runs', 'undo', going!.run]);
    expect(twice.stderr).toBe(
      `RUN: ${going!.run} is already being undone by another runs undo (pid ${process.pid}, started ${lockStarted}); wait for that undo to end\n`,
    );
    expect(twice.code).toBe(2);
    const aged = await user.run(['ads', 'runs', 'prune', '--older-than', '30'], { clock: later });
    expect(aged.stderr).toBe('Removed 1 run\n');
    expect((await runs()).map((r) => r.run)).toEqual([going!.run]);
    fs.rmSync(`${journal}.lock`);
    expect((await user.run(['ads', 'runs', 'prune', '--older-than', '30'], { clock: later })).stderr).toBe('Removed 1 run\n');
    expect(await runs()).toEqual([]);
    const nothing = await user.run(['ads', 'runs', 'prune']);
    expect(nothing.code).toBe(2);
  });
});
