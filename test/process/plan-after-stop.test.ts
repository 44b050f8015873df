// A plan is written whole or not at all: a dry run stopped part-way (Ctrl-C, SIGKILL) leaves
// no plan that `ads apply` would send as if it were whole, and an earlier plan at the same
// path as it was; one that goes through every row writes its plan (0600).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
/** Pages of 2,000: the dry run reads three, each answer LATENCY_MS late, and prints each page's rows as it comes. */
const ROWS = 5000;
const LATENCY_MS = 400;

let dir: string;
let sandbox: Sandbox;
let csv: string;

beforeAll(async () => {
  dir = tempDir('platform-plan-stop-');
  sandbox = await sandboxOnFreePort({ campaigns: ROWS, latencyMs: LATENCY_MS });
  csv = path.join(dir, 'pause.csv');
  const ids = (
    JSON.parse((await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '--json'], env())).stdout) as Array<{ campaign_id: string }>
  ).map((c) => c.campaign_id);
  expect(ids).toHaveLength(ROWS);
  fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},Planned ${i}`).join('\n')}\n`);
}, scaled(60_000));
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => cliEnv(dir, sandbox.url);

const dryRunArgs = (plan: string) => ['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--dry-run', '--plan', plan, '-o', 'ndjson'];
/** The dry run, sent `signal` once it has printed its first rows (the first page is read; two are not). */
const stoppedDryRun = (plan: string, signal: NodeJS.Signals) => runCli(dryRunArgs(plan), env(), (stdout) => stdout.length > 0, signal);

/** Files in the plans' folder besides the CSV (a plan, or what a stopped dry run left of one). */
const leftovers = () => fs.readdirSync(dir).filter((name) => name.includes('plan'));

describe('--dry-run --plan FILE, stopped part-way', () => {
  it('Ctrl-C: no plan is written, an earlier plan at FILE is kept as it was, and the message says so', { timeout: scaled(60_000) }, async () => {
    const plan = path.join(dir, 'interrupted-plan.ndjson');
    const earlier = '{"type":"plan","version":1,"resource":"campaigns","mode":"patch","scope":{"account":"x"},"created":"2026-01-01T00:00:00.000Z"}\n';
    fs.writeFileSync(plan, earlier);
    const stopped = await stoppedDryRun(plan, 'SIGINT');
    expect(stopped.code, stopped.stderr).toBe(130);
    // Some rows were shown, not all.
    const shown = stopped.stdout.trim().split('\n').length;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(ROWS);
    expect(stopped.stderr).toContain(`so no plan was written to ${plan}`);
    expect(fs.readFileSync(plan, 'utf8')).toBe(earlier);
    expect(leftovers()).toEqual([path.basename(plan)]);
    fs.rmSync(plan);
  });

  it('SIGKILL: FILE is not created, so apply refuses it rather than send part of the rows', { timeout: scaled(60_000) }, async () => {
    const plan = path.join(dir, 'killed-plan.ndjson');
    const stopped = await stoppedDryRun(plan, 'SIGKILL');
    expect(stopped.signal).toBe('SIGKILL');
    expect(fs.existsSync(plan)).toBe(false);
    const apply = await runCli(['ads', 'apply', plan], env());
    expect(apply.code).toBe(2);
    expect(apply.stderr).toContain(`no such plan ${plan}`);
    expect(sandbox.stats.writesById.size).toBe(0);
    // What the killed run was writing stays beside FILE, hidden: a dot file ending .part, as a report download's,
    // named with its writer's pid; the next dry run to FILE removes it (its writer is gone).
    const [partial, ...more] = leftovers();
    expect(more).toEqual([]);
    expect(partial).toMatch(/^\.killed-plan\.ndjson\.\d+-[0-9a-f]{12}\.part$/);
    const again = await runCli(dryRunArgs(plan), env());
    expect(again.code, again.stderr).toBe(0);
    expect(leftovers()).toEqual([path.basename(plan)]);
    fs.rmSync(plan);
  });

  it('a dry run that goes through every row writes the whole plan (0600), which apply then sends', { timeout: scaled(60_000) }, async () => {
    const plan = path.join(dir, 'whole-plan.ndjson');
    const made = await runCli(dryRunArgs(plan), env());
    expect(made.code, made.stderr).toBe(0);
    expect(fs.statSync(plan).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(plan, 'utf8').trim().split('\n')).toHaveLength(ROWS + 1);
    expect(leftovers()).toEqual([path.basename(plan)]);
    const applied = await runCli(['ads', 'apply', plan, '-o', 'ndjson'], env());
    expect(applied.code, applied.stderr).toBe(0);
    expect(sandbox.stats.writesById.size).toBe(ROWS);
  });
});
