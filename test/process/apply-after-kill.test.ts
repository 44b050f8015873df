// An apply of a create's plan killed part-way (SIGKILL), then the same command run again,
// as a script or a person retries it: the second goes on with the first's run, so every
// row of the plan is created exactly once, and a third is refused (the plan was applied).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import type { Campaign, Result } from '../helpers/ads-rows.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const ROWS = 40;
/** Each answer this late: the kill comes while later batches are still to be sent, one in flight. */
const LATENCY_MS = 150;

let dir: string;
let sandbox: Sandbox;

beforeAll(async () => {
  dir = tempDir('platform-apply-kill-');
  sandbox = await sandboxOnFreePort({ latencyMs: LATENCY_MS });
});
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => cliEnv(dir, sandbox.url);
const results = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Result);

describe('ads apply, killed and run again', () => {
  it('creates each row of the plan once', { timeout: scaled(60_000) }, async () => {
    const names = Array.from({ length: ROWS }, (_, i) => `Killed apply ${i}`);
    const csv = path.join(dir, 'new.csv');
    fs.writeFileSync(csv, `name,status\n${names.map((name) => `${name},paused`).join('\n')}\n`);
    const plan = path.join(dir, 'new.plan.ndjson');
    // (a plan fixes its requests: five rows each)
    const made = await runCli(
      ['ads', 'campaigns', 'create', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', '5', '--dry-run', '--plan', plan, '-o', 'ndjson'],
      env(),
    );
    expect(made.code, made.stderr).toBe(0);

    const apply = ['ads', 'apply', plan, '--concurrency', '1', '-o', 'ndjson'];
    // Killed once the first batch's results are out: some rows created, the rest not yet.
    const killed = await runCli(apply, env(), (stdout) => stdout.includes('\n'));
    expect(killed.signal).toBe('SIGKILL');
    const before = results(killed.stdout).length;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(ROWS);

    const again = await runCli(apply, env());
    expect(again.code, again.stderr).toBe(0);
    const second = results(again.stdout);
    const listed = await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '--json'], env());
    const campaigns = JSON.parse(listed.stdout) as Campaign[];
    expect(names.map((name) => campaigns.filter((c) => c.name === name).length)).toEqual(names.map(() => 1));
    expect(second).toHaveLength(ROWS);
    expect(second.every((r) => r.result === 'ok' || r.error_code === 'AlreadyApplied')).toBe(true);
    expect(second.filter((r) => r.error_code === 'AlreadyApplied').length).toBeGreaterThanOrEqual(before);
    // Each row's result names the campaign created for it.
    expect(second.map((r) => campaigns.find((c) => c.campaign_id === r.id)?.name)).toEqual(names);
    expect(again.stderr).toContain(`${plan} was applied by run`);

    // Behaviour of issue #42: that apply ended well, so the plan is in the ledger and a third is refused, naming the run.
    const third = await runCli(apply, env());
    expect(third.code, third.stderr).toBe(2);
    expect(third.stdout).toBe('');
    expect(third.stderr).toMatch(/was applied on \S+ by run [0-9a-f]{8} \(profile local\); a plan is applied once/);
    const after = JSON.parse((await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '--json'], env())).stdout) as Campaign[];
    expect(after).toHaveLength(campaigns.length);
  });

  it('two applies of one plan at once: one applies it, the other is refused (exit 2) and sends nothing', { timeout: scaled(60_000) }, async () => {
    const names = Array.from({ length: ROWS }, (_, i) => `Twice at once ${i}`);
    const csv = path.join(dir, 'twice.csv');
    fs.writeFileSync(csv, `name,status\n${names.map((name) => `${name},paused`).join('\n')}\n`);
    const plan = path.join(dir, 'twice.plan.ndjson');
    const made = await runCli(['ads', 'campaigns', 'create', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', '5', '--dry-run', '--plan', plan], env());
    expect(made.code, made.stderr).toBe(0);
    const apply = ['ads', 'apply', plan, '--concurrency', '1', '-o', 'ndjson'];
    const both = await Promise.all([runCli(apply, env()), runCli(apply, env())]);
    expect(both.map((r) => r.code).sort()).toEqual([0, 2]);
    const refused = both.find((r) => r.code === 2)!;
    expect(refused.stderr).toMatch(
      new RegExp(`^plan sha256:[0-9a-f]{64}\n${plan.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} is being applied by another run \\(pid \\d+, started `),
    );
    expect(refused.stdout).toBe('');
    const listed = JSON.parse((await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '--json'], env())).stdout) as Campaign[];
    expect(names.map((name) => listed.filter((c) => c.name === name).length)).toEqual(names.map(() => 1));
  });
});
