// Plans you can trust (issue #42, items 1-3), with the built CLI against real sandboxes:
// a plan is applied once wherever it is applied (its requests' keys are fixed in it, the
// sandbox keeps them per account, and this machine's ledger of applied plans outlives
// `runs prune`); a plan edited since it was made is refused, naming the line, with nothing
// sent; and a plan names the API origin and account it was made for: another is refused
// unless --retarget, which reads every row there first.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { chainNext, chainStart, sha256Hex, unseal, withSeal } from '../../src/bulk/plan/plan-seal.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { runOnPty } from '../helpers/pty.js';
import type { Campaign, Result } from '../helpers/ads-rows.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
/** Each answer this late: a kill comes while later requests of an apply are still to be sent. */
const LATENCY_MS = 100;

let root: string;
let sandbox: Sandbox;
/** A second server: another origin, seeded alike. */
let other: Sandbox;

beforeAll(async () => {
  root = tempDir('platform-plan-trust-');
  [sandbox, other] = await Promise.all([sandboxOnFreePort({ latencyMs: LATENCY_MS }), sandboxOnFreePort()]);
});
afterAll(async () => {
  await Promise.all([sandbox.close(), other.close()]);
  fs.rmSync(root, { recursive: true, force: true });
});

/** A machine of its own: its home, state (runs, ledger) and profiles, against `url`. */
function machine(name: string, url = sandbox.url): Record<string, string> {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  return cliEnv(dir, url);
}

const results = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Result);

async function campaigns(env: Record<string, string>): Promise<Campaign[]> {
  const listed = await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '--json'], env);
  expect(listed.code, listed.stderr).toBe(0);
  return JSON.parse(listed.stdout) as Campaign[];
}

/** How many campaigns each name has. */
async function createdPerName(names: string[], env: Record<string, string>): Promise<number[]> {
  const all = await campaigns(env);
  return names.map((name) => all.filter((c) => c.name === name).length);
}

/** A create's plan of campaigns with these names, in requests of `batch` rows. */
async function createPlan(env: Record<string, string>, name: string, names: string[], batch = 2): Promise<string> {
  const dir = env.HOME!;
  const csv = path.join(dir, `${name}.csv`);
  fs.writeFileSync(csv, `name,status\n${names.map((n) => `${n},paused`).join('\n')}\n`);
  const plan = path.join(dir, `${name}.plan.ndjson`);
  const made = await runCli(
    ['ads', 'campaigns', 'create', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', String(batch), '--dry-run', '--plan', plan],
    env,
  );
  expect(made.code, made.stderr).toBe(0);
  return plan;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a plan is applied once, wherever', () => {
  it(
    'by two profiles on two machines, and after runs prune --keep 0: each row is created once; a second apply here exits 2 naming the run',
    { timeout: scaled(90_000) },
    async () => {
      const names = Array.from({ length: 5 }, (_, i) => `Applied once ${i}`);
      const here = machine('once-here');
      const plan = await createPlan(here, 'once', names);

      const first = await runCli(['ads', 'apply', plan, '-o', 'ndjson'], here);
      expect(first.code, first.stderr).toBe(0);
      const created = results(first.stdout).map((r) => r.id);
      const run = /Journal: .*-([0-9a-f]{8})\.ndjson\n/.exec(first.stderr)![1]!;
      expect(await createdPerName(names, here)).toEqual([1, 1, 1, 1, 1]);

      // Another machine, another profile (a client-credentials login of its own): the plan's keys, answered as the first time.
      const there = machine('once-there');
      fs.copyFileSync(plan, path.join(there.HOME!, 'once.plan.ndjson'));
      for (const env of [there, here]) {
        const login = await runCli(
          ['auth', 'login', '--client-credentials', '--client-id', SANDBOX_DEMO_CLIENT_ID, '--profile', 'second', '--secure-storage', 'file'],
          { ...env, PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET },
        );
        expect(login.code, login.stderr).toBe(0);
      }
      const elsewhere = await runCli(['ads', 'apply', path.join(there.HOME!, 'once.plan.ndjson'), '--profile', 'second', '-o', 'ndjson'], there);
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      expect(results(elsewhere.stdout).map((r) => [r.id, r.result])).toEqual(created.map((id) => [id, 'ok']));
      expect(await createdPerName(names, here)).toEqual([1, 1, 1, 1, 1]);
      expect(created.map((id) => sandbox.stats.writesById.get(id))).toEqual([1, 1, 1, 1, 1]);

      // The printed hash is the file's SHA-256, as any tool computes it.
      const hash = /^plan sha256:([0-9a-f]{64})$/m.exec(first.stderr)?.[1] ?? '';
      expect(hash).toBe(sha256Hex(fs.readFileSync(plan, 'latin1')));

      // Here, with the runs pruned: the ledger keeps the plan, by any profile.
      const pruned = await runCli(['ads', 'runs', 'prune', '--keep', '0'], here);
      expect(pruned.code, pruned.stderr).toBe(0);
      expect(pruned.stderr).toContain('Removed 1 run');
      const requests = sandbox.stats.apiRequests;
      // (the default profile is now the last one logged in to: second; local by name)
      for (const profile of [[], ['--profile', 'local']]) {
        const again = await runCli(['ads', 'apply', plan, ...profile, '-o', 'ndjson'], here);
        expect(again.code).toBe(2);
        expect(again.stdout).toBe('');
        expect(again.stderr).toBe(
          `plan sha256:${hash}\n${plan} (sha256:${hash.slice(0, 12)}…) was applied on ${/"applied":"([^"]+)"/.exec(fs.readFileSync(path.join(here.XDG_STATE_HOME!, 'platform', 'plans', 'applied.ndjson'), 'utf8'))![1]} ` +
            `by run ${run} (profile local); a plan is applied once: to apply its changes again, add --again (a new plan with new idempotency keys)\n`,
        );
      }
      expect(sandbox.stats.apiRequests).toBe(requests);

      // A third machine, with no ledger and no runs: its keys still make it a repeat.
      const third = machine('once-third');
      const replayed = await runCli(['ads', 'apply', plan, '-o', 'ndjson'], third);
      expect(replayed.code, replayed.stderr).toBe(0);
      expect(results(replayed.stdout).map((r) => r.id)).toEqual(created);
      expect(await createdPerName(names, here)).toEqual([1, 1, 1, 1, 1]);
    },
  );

  it(
    'an apply killed part-way, then the plan applied on another machine, then the first resumed: each row created once',
    { timeout: scaled(90_000) },
    async () => {
      const names = Array.from({ length: 12 }, (_, i) => `Killed then elsewhere ${i}`);
      const here = machine('killed-here');
      const plan = await createPlan(here, 'killed', names, 3);
      // (--batch-size: the plan's, which apply may repeat)
      const apply = ['ads', 'apply', plan, '--batch-size', '3', '--concurrency', '1', '-o', 'ndjson'];
      // Killed once the first request's results are out: some rows created, the rest not yet.
      const killed = await runCli(apply, here, (stdout) => stdout.includes('\n'));
      expect(killed.signal).toBe('SIGKILL');
      const before = results(killed.stdout).length;
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThan(names.length);

      const there = machine('killed-there');
      const elsewhere = await runCli(apply, there);
      expect(elsewhere.code, elsewhere.stderr).toBe(0);
      const created = results(elsewhere.stdout).map((r) => r.id);
      expect(await createdPerName(names, here)).toEqual(names.map(() => 1));

      // Here, the same command: it goes on with its run (not in the ledger: it was killed), and what it sends is answered as before.
      const resumed = await runCli(apply, here);
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stderr).toContain(`${plan} was applied by run`);
      expect(results(resumed.stdout).map((r) => r.id)).toEqual(created);
      expect(await createdPerName(names, here)).toEqual(names.map(() => 1));
      expect(created.map((id) => sandbox.stats.writesById.get(id))).toEqual(names.map(() => 1));
    },
  );

  it(
    '--again: asks first (refused without a terminal unless --yes, exit 2, nothing sent); a new plan beside it with new keys, sent once',
    { timeout: scaled(90_000) },
    async () => {
      const names = ['Again A', 'Again B', 'Again C'];
      const here = machine('again');
      const plan = await createPlan(here, 'again', names);
      expect((await runCli(['ads', 'apply', plan], here)).code).toBe(0);
      const files = () => fs.readdirSync(here.HOME!).filter((name) => name.startsWith('again.plan.'));

      const requests = sandbox.stats.apiRequests;
      const unasked = await runCli(['ads', 'apply', plan, '--again'], here);
      expect(unasked.code).toBe(2);
      expect(unasked.stderr).toBe(
        `--again: each of the 3 rows of ${plan} is sent again (what it creates is created again), so it asks first, and stdin is not a terminal to ask on: ` +
          'add --yes to make and send the new plan without asking\n',
      );
      expect(sandbox.stats.apiRequests).toBe(requests);
      expect(files()).toEqual(['again.plan.ndjson']);

      // On a terminal it asks; no is no.
      const declined = runOnPty(['ads', 'apply', plan, '--again'], here);
      await declined.waitFor(/Make the new plan and send it\?/);
      declined.type('n\r');
      const no = await declined.done;
      expect(no.code, no.output).toBe(1);
      expect(no.output).toContain('not applied: you declined');
      expect(sandbox.stats.apiRequests).toBe(requests);
      expect(await createdPerName(names, here)).toEqual([1, 1, 1]);

      const asked = runOnPty(['ads', 'apply', plan, '--again', '-o', 'ndjson'], here);
      const line = await asked.waitFor(
        /--again: a new plan, (\S+), is made from \S+ with new idempotency keys and sent: each of the 3 rows of \S+ is sent again/,
      );
      await asked.waitFor(/Make the new plan and send it\?/);
      asked.type('y\r');
      const yes = await asked.done;
      expect(yes.code, yes.output).toBe(0);
      const next = line[1]!.replace(/,$/, '');
      expect(path.dirname(next)).toBe(here.HOME);
      expect(path.basename(next)).toMatch(/^again\.plan\.again-[0-9a-f]{8}\.ndjson$/);
      expect(await createdPerName(names, here)).toEqual([2, 2, 2]);

      // The new plan: the same rows under new keys, naming the plan it was made from; applied, it is in the ledger.
      const [oldHeader, ...oldRows] = fs
        .readFileSync(plan, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const [newHeader, ...newRows] = fs
        .readFileSync(next, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(newHeader).toMatchObject({ again_of: sha256Hex(fs.readFileSync(plan, 'latin1')), target: oldHeader!.target, rows: 3 });
      expect(newHeader!.id).not.toBe(oldHeader!.id);
      expect(newRows.map((r) => r.request)).toEqual(oldRows.map((r) => r.request));
      expect(newRows.some((r, i) => r.key === oldRows[i]!.key)).toBe(false);
      const twice = await runCli(['ads', 'apply', next], here);
      expect(twice.code).toBe(2);
      expect(twice.stderr).toContain('was applied on');

      // --yes without a terminal.
      const scripted = await runCli(['ads', 'apply', plan, '--again', '--yes', '-o', 'ndjson'], here);
      expect(scripted.code, scripted.stderr).toBe(0);
      expect(await createdPerName(names, here)).toEqual([3, 3, 3]);
      expect(files()).toHaveLength(3);
    },
  );
});

describe('a plan cannot be edited in silence', () => {
  /** The plan with line `number` (1: the header) changed by `edit`, written beside it. */
  function edited(plan: string, name: string, number: number, edit: (line: string) => string): string {
    const lines = fs.readFileSync(plan, 'utf8').split('\n');
    lines[number - 1] = edit(lines[number - 1]!);
    const file = path.join(path.dirname(plan), name);
    fs.writeFileSync(file, lines.join('\n'));
    return file;
  }

  /** The plan with `edit` made to line `number`'s content, every seal made again (as a tool that knew them would). */
  function resealed(plan: string, name: string, number: number, edit: (content: string) => string): string {
    const lines = fs.readFileSync(plan, 'utf8').trim().split('\n');
    const header = JSON.parse(unseal(lines[0]!)!.content) as { id: string; rows_sha256: string };
    let chain = chainStart(header.id);
    const rows = lines.slice(1).map((line, i) => {
      const content = i + 2 === number ? edit(unseal(line)!.content) : unseal(line)!.content;
      chain = chainNext(chain, content);
      return withSeal(content, chain);
    });
    const json = JSON.stringify({ ...header, rows_sha256: chain });
    const file = path.join(path.dirname(plan), name);
    fs.writeFileSync(file, `${[withSeal(json, sha256Hex(json)), ...rows].join('\n')}\n`);
    return file;
  }

  it('an edited request, write, current or header, or a removed row: refused naming the line, exit 2, nothing sent', { timeout: scaled(60_000) }, async () => {
    const here = machine('edited');
    const [a, b] = (await campaigns(here)).slice(0, 2);
    const csv = path.join(here.HOME!, 'names.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${a!.campaign_id},Edited A\n${b!.campaign_id},Edited B\n`);
    const plan = path.join(here.HOME!, 'names.plan.ndjson');
    const made = await runCli(['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--dry-run', '--plan', plan], here);
    expect(made.code, made.stderr).toBe(0);

    // The request's name (after current's and write's): another one, so that the request is not what write gives.
    const sneakIntoRequest = (line: string) => {
      const at = line.lastIndexOf('"name":"Edited B"');
      return `${line.slice(0, at)}"name":"Sneaked in"${line.slice(at + '"name":"Edited B"'.length)}`;
    };
    const cases: Array<[string, string]> = [
      [edited(plan, 'request.ndjson', 3, sneakIntoRequest), 'line 3 changed since the plan was made'],
      [
        edited(plan, 'write.ndjson', 2, (l) => l.replace('"write":{"name":"Edited A"', '"write":{"name":"Sneaked in"')),
        'line 2 changed since the plan was made',
      ],
      [edited(plan, 'current.ndjson', 3, (l) => l.replace('"current":{"name":', '"current":{"name":"x","was":')), 'line 3 changed since the plan was made'],
      [
        edited(plan, 'header.ndjson', 1, (l) => l.replace(`"account":"${ACCOUNT}"`, '"account":"another"')),
        'line 1 (the header) changed since the plan was made',
      ],
      [edited(plan, 'removed.ndjson', 2, () => ''), 'line 3 changed since the plan was made'],
      [
        resealed(plan, 'resealed.ndjson', 3, sneakIntoRequest),
        'line 3: its request does not match its write: name is "Sneaked in" where write and id give "Edited B"',
      ],
    ];
    const requests = sandbox.stats.apiRequests;
    const writes = [a!, b!].map((c) => sandbox.stats.writesById.get(c.campaign_id));
    for (const [file, what] of cases) {
      for (const dryRun of [[], ['--dry-run']]) {
        const refused = await runCli(['ads', 'apply', file, ...dryRun], here);
        expect(refused.code, file).toBe(2);
        expect(refused.stdout).toBe('');
        expect(refused.stderr).toBe(
          `${file}: ${what}${what.includes('its request') ? '' : ' (its sha256 does not match)'}; nothing was sent: make the plan again\n`,
        );
      }
    }
    expect(sandbox.stats.apiRequests).toBe(requests);
    expect([a!, b!].map((c) => sandbox.stats.writesById.get(c.campaign_id))).toEqual(writes);

    // The plan itself is whole: sent.
    const applied = await runCli(['ads', 'apply', plan, '-o', 'ndjson'], here);
    expect(applied.code, applied.stderr).toBe(0);
    expect(results(applied.stdout).map((r) => r.result)).toEqual(['ok', 'ok']);
  });

  it('a plan of version 1 is refused: make it again (exit 2, nothing sent)', { timeout: scaled(30_000) }, async () => {
    const here = machine('old');
    const plan = path.join(here.HOME!, 'old.plan.ndjson');
    fs.writeFileSync(
      plan,
      '{"type":"plan","version":1,"resource":"campaigns","mode":"create","scope":{"account":"a087eaf3-00b3-49c9-8706-c4ebfb2627fd"},"created":"2026-01-01T00:00:00.000Z","id":"x"}\n' +
        '{"type":"row","line":2,"id":"","write":{"name":"Old"},"request":{"name":"Old"}}\n',
    );
    const requests = sandbox.stats.apiRequests;
    const refused = await runCli(['ads', 'apply', plan], here);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toBe(
      `${plan} is a plan of version 1, made before plans named their target and fixed their idempotency keys; nothing was sent: make it again with --dry-run --plan\n`,
    );
    expect(sandbox.stats.apiRequests).toBe(requests);
  });
});

describe('a plan names its target', () => {
  it(
    'applied against another server (PLATFORM_BASE_URL) it is refused naming both; --retarget reads every row there and applies it',
    { timeout: scaled(60_000) },
    async () => {
      const here = machine('target');
      const [a, b] = (await campaigns(here)).slice(2, 4);
      const csv = path.join(here.HOME!, 'budgets.csv');
      fs.writeFileSync(csv, `campaign_id,name\n${a!.campaign_id},Retargeted A\n${b!.campaign_id},Retargeted B\n`);
      const plan = path.join(here.HOME!, 'budgets.plan.ndjson');
      const made = await runCli(['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--dry-run', '--plan', plan], here);
      expect(made.code, made.stderr).toBe(0);
      expect(JSON.parse(fs.readFileSync(plan, 'utf8').split('\n')[0]!)).toMatchObject({
        target: { origin: new URL(sandbox.url).origin, account: ACCOUNT, profile: 'local' },
      });

      const there = { ...here, PLATFORM_BASE_URL: other.url };
      // Someone changed b there: the plan's current values are not b's there.
      const changed = await runCli(['ads', 'campaigns', 'patch', '--account', ACCOUNT, b!.campaign_id, '--name', 'Changed there'], there);
      expect(changed.code, changed.stderr).toBe(0);
      other.resetStats();
      const refused = await runCli(['ads', 'apply', plan], there);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toBe(
        `${plan} was made for account ${ACCOUNT} at ${new URL(sandbox.url).origin}, and this apply is against account ${ACCOUNT} at ${new URL(other.url).origin}; ` +
          'nothing was sent: add --retarget to apply it here (every row is read here first), or make the plan here\n',
      );
      // Another account on the same server, too.
      const account = await runCli(['ads', 'apply', plan, '--account', '00000000-0000-4000-8000-000000000000'], here);
      expect(account.code).toBe(2);
      expect(account.stderr).toMatch(
        new RegExp(`and this apply is against account 00000000-0000-4000-8000-000000000000 at ${escape(new URL(sandbox.url).origin)};`),
      );
      expect(other.stats.apiRequests).toBe(0);

      const retargeted = await runCli(['ads', 'apply', plan, '--retarget', '-o', 'ndjson'], there);
      expect(retargeted.code).toBe(1);
      expect(results(retargeted.stdout).map((r) => [r.id, r.result])).toEqual([
        [a!.campaign_id, 'ok'],
        [b!.campaign_id, 'conflict'],
      ]);
      expect(results(retargeted.stdout)[1]!.error_message).toBe(`changed since the plan (plan -> now): name: ${b!.name} -> Changed there`);
      const onOther = await campaigns(there);
      expect(onOther.find((c) => c.campaign_id === a!.campaign_id)!.name).toBe('Retargeted A');
      expect(onOther.find((c) => c.campaign_id === b!.campaign_id)!.name).toBe('Changed there');
      // Nothing reached the first server.
      expect((await campaigns(here)).filter((c) => c.name.startsWith('Retargeted'))).toEqual([]);
    },
  );
});
