// --shard I/N, as an orchestrator runs it: N processes of one input, at once, against one
// sandbox process that fails and throttles some requests. Together they write every row
// exactly once and their results, concatenated, hold one result per input line; a shard
// killed mid-run resumes from its own journal, and only as its own shard.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { journaledRows } from '../helpers/journal-records.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { cliEnv, runCli, type Ended } from '../helpers/cli-process.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/platform.js');
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
// Each shard sends about 8 batches of 25: a kill after a fifth of them still lands with batches in flight.
const ROWS = 800;
const SHARDS = 4;

let dir: string;
let url: string;
let sandbox: SandboxProcess;

beforeAll(async () => {
  dir = tempDir('platform-shards-');
  fs.mkdirSync(path.join(dir, 'tmp'));
  // Slow and faulty enough that shards overlap, retry, and one can be killed mid-run.
  sandbox = await startSandboxProcess(['--campaigns', String(ROWS), '--latency', '10', '--fail-rate', '0.05', '--throttle-rate', '0.05']);
  url = sandbox.url;
}, scaled(60_000));
afterAll(() => {
  sandbox.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => cliEnv(dir, url, path.join(dir, 'tmp'));

/** Runs the CLI in this test's environment; `killWhen` is polled and, once true, the process gets SIGKILL. */
const run = (args: string[], killWhen?: () => boolean): Promise<Ended> => runCli(args, env(), killWhen);

/** Resumes a journal until the run ends well (the sandbox fails some requests for good). */
async function resumeUntilDone(args: string[], journal: string): Promise<Ended> {
  const endings: string[] = [];
  for (let attempt = 0; attempt < 6; attempt++) {
    const ended = await run([...args, '--resume', journal]);
    if (ended.code === 0) return ended;
    // Exit 1 (rows failed) is resumed, never rerun from scratch.
    expect(ended.code, ended.stderr).toBe(1);
    endings.push(ended.stderr.trim().split('\n').slice(-2).join(' / '));
  }
  throw new Error(`the shard never finished:\n${endings.join('\n')}`);
}

async function writes(): Promise<Record<string, number>> {
  return ((await (await fetch(`${url}/_sandbox/stats`)).json()) as { writes: Record<string, number> }).writes;
}

async function campaigns(): Promise<Array<{ campaign_id: string; name: string }>> {
  const listed = await run(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'ndjson']);
  expect(listed.code, listed.stderr).toBe(0);
  return listed.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { campaign_id: string; name: string });
}

const results = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { line: number; id: string; result: string; error_code: string });

describe('--shard I/N', { timeout: scaled(240_000) }, () => {
  it(`4 processes run shards 0..3 of one ${ROWS}-row patch at once, one killed with SIGKILL and resumed: every row written exactly once, one result per line`, async () => {
    const ids = (await campaigns()).map((c) => c.campaign_id).slice(0, ROWS);
    expect(ids).toHaveLength(ROWS);
    const csv = path.join(dir, 'patch.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},Sharded ${i}`).join('\n')}\n`);
    const before = await writes();
    const args = (shard: number) => [
      ...['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--shard', `${shard}/${SHARDS}`],
      ...['--batch-size', '25', '--concurrency', '2', '-o', 'ndjson'],
    ];
    const journal = (shard: number) => path.join(dir, `patch-shard-${shard}.ndjson`);
    const KILLED = 2;
    const firstRuns = await Promise.all(
      Array.from({ length: SHARDS }, (_, shard) =>
        run(
          [...args(shard), '--journal', journal(shard)],
          // Killed once a fifth of its (about ROWS / SHARDS) rows are journaled as done.
          shard === KILLED ? () => journaledRows(journal(shard)) >= ROWS / SHARDS / 5 : undefined,
        ),
      ),
    );
    expect(firstRuns[KILLED]!.signal, firstRuns[KILLED]!.stderr).toBe('SIGKILL');
    // Its journal is its shard's: resumed as another shard, it is refused before anything is sent.
    const wrongShard = await run([...args(1), '--resume', journal(KILLED)]);
    expect(wrongShard.code).toBe(2);
    expect(wrongShard.stderr).toContain(`--shard: ${journal(KILLED)} is the journal of a run with --shard ${KILLED}/${SHARDS}`);
    const finals: Ended[] = [];
    for (let shard = 0; shard < SHARDS; shard++) {
      const first = firstRuns[shard]!;
      finals.push(first.code === 0 ? first : await resumeUntilDone(args(shard), journal(shard)));
    }
    const after = await writes();
    const wrong = ids.filter((id) => (after[id] ?? 0) - (before[id] ?? 0) !== 1);
    expect(wrong.map((id) => `${id}: ${(after[id] ?? 0) - (before[id] ?? 0)}`)).toEqual([]);
    // Concatenated, the shards' final results hold each input line once; the killed shard's
    // resumed rows that its first run applied are reported skipped (AlreadyApplied).
    const all = finals.flatMap((ended) => results(ended.stdout));
    expect(all.map((r) => r.line).sort((a, b) => a - b)).toEqual(Array.from({ length: ROWS }, (_, i) => i + 2));
    expect(all.filter((r) => r.result !== 'ok' && r.result !== 'skipped')).toEqual([]);
    expect(results(finals[KILLED]!.stdout).some((r) => r.error_code === 'AlreadyApplied')).toBe(true);
    // Each shard took a fair share, not all or none.
    for (const ended of finals) expect(results(ended.stdout).length).toBeGreaterThan(ROWS / SHARDS / 2);
    const names = new Map((await campaigns()).map((c) => [c.campaign_id, c.name]));
    expect(ids.filter((id, i) => names.get(id) !== `Sharded ${i}`)).toEqual([]);
  });

  it('creates are sharded by content: 4 shards of 200 rows (two of them identical) create each campaign once; default journals are named per shard', async () => {
    const marker = `S${Date.now().toString(36)}`;
    const rows = Array.from({ length: 200 }, (_, i) => `${marker}-${i === 199 ? 0 : i},active,10,USD,daily`);
    const csv = path.join(dir, 'create.csv');
    fs.writeFileSync(csv, `name,status,budget,currency,budget_unit\n${rows.join('\n')}\n`);
    const ends = await Promise.all(
      Array.from({ length: SHARDS }, (_, shard) =>
        run(['ads', 'campaigns', 'create', '--account', ACCOUNT, '--from-csv', csv, '--shard', `${shard}/${SHARDS}`, '-o', 'ndjson']),
      ),
    );
    for (const [shard, ended] of ends.entries()) {
      expect(ended.code, ended.stderr).toBe(0);
      expect(ended.stderr).toMatch(new RegExp(`Journal: .*-create-campaigns-shard-${shard}-of-${SHARDS}-[0-9a-f]{8}\\.ndjson\\n`));
    }
    const all = ends.flatMap((ended) => results(ended.stdout));
    expect(all.map((r) => r.line).sort((a, b) => a - b)).toEqual(Array.from({ length: 200 }, (_, i) => i + 2));
    const counts = new Map<string, number>();
    for (const c of await campaigns()) if (c.name.startsWith(`${marker}-`)) counts.set(c.name, (counts.get(c.name) ?? 0) + 1);
    expect(counts.size).toBe(199);
    // The repeated row is created twice, as without --shard: both copies went to one shard.
    expect([...counts].filter(([, n]) => n !== 1)).toEqual([[`${marker}-0`, 2]]);
    const withBoth = ends.filter((ended) => results(ended.stdout).some((r) => r.line === 2));
    expect(results(withBoth[0]!.stdout).some((r) => r.line === 201)).toBe(true);
  });

  it("README's xargs -P recipe, as written: 4 shards write each row once; run again, every shard resumes its journal and writes nothing", async () => {
    const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
    const recipe = /```sh\n([\s\S]+?)\n\s*```/.exec(readme.slice(readme.indexOf('**Shards: one input')))?.[1];
    expect(recipe).toContain('--shard {}/4');
    const cwd = tempDir('platform-shards-recipe-');
    // `platform` on the PATH is the built CLI.
    fs.mkdirSync(path.join(cwd, 'bin'));
    fs.writeFileSync(path.join(cwd, 'bin', 'platform'), `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`, { mode: 0o755 });
    const ids = (await campaigns()).map((c) => c.campaign_id).slice(0, 400);
    fs.writeFileSync(path.join(cwd, 'campaigns.csv'), `campaign_id,name\n${ids.map((id, i) => `${id},Recipe ${i}`).join('\n')}\n`);
    const recipeEnv = { ...env(), PATH: `${path.join(cwd, 'bin')}:${process.env.PATH ?? ''}`, PLATFORM_ACCOUNT: ACCOUNT };
    const runRecipe = () =>
      new Promise<number | null>((resolve) => spawn('bash', ['-c', recipe!], { cwd, env: recipeEnv, stdio: 'ignore' }).once('close', resolve));
    const shardResults = () => [0, 1, 2, 3].flatMap((shard) => results(fs.readFileSync(path.join(cwd, `results-${shard}.ndjson`), 'utf8')));
    const before = await writes();
    // As the README says: after a failure (the sandbox fails some requests), the same command again.
    let code = await runRecipe();
    for (let attempt = 0; code !== 0 && attempt < 3; attempt++) code = await runRecipe();
    expect(code).toBe(0);
    expect(
      fs
        .readdirSync(path.join(cwd, 'runs'))
        .filter((name) => name.endsWith('.ndjson'))
        .sort(),
    ).toEqual([0, 1, 2, 3].map((shard) => `campaigns-${shard}.ndjson`));
    const first = shardResults();
    expect(first.map((r) => r.line).sort((a, b) => a - b)).toEqual(Array.from({ length: 400 }, (_, i) => i + 2));
    const middle = await writes();
    expect(ids.filter((id) => (middle[id] ?? 0) - (before[id] ?? 0) !== 1)).toEqual([]);
    // Again: every shard resumes its journal; nothing is written, every row already applied.
    expect(await runRecipe()).toBe(0);
    const again = shardResults();
    expect(again).toHaveLength(400);
    expect(again.filter((r) => r.error_code !== 'AlreadyApplied')).toEqual([]);
    const last = await writes();
    expect(ids.filter((id) => (middle[id] ?? 0) !== (last[id] ?? 0))).toEqual([]);
    fs.rmSync(cwd, { recursive: true, force: true });
  });

  it('a bad --shard is exit 2 naming the flag, and nothing is sent', async () => {
    const before = await writes();
    for (const bad of ['4/4', '1/0', 'x']) {
      const ended = await run(['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', path.join(dir, 'patch.csv'), '--shard', bad]);
      expect(ended.code).toBe(2);
      expect(ended.stderr).toContain('--shard: expected I/N');
    }
    const fromFlags = await run(['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--campaign-id', 'c', '--name', 'x', '--shard', '0/2']);
    expect(fromFlags.code).toBe(2);
    expect(fromFlags.stderr).toContain('--shard');
    expect(await writes()).toEqual(before);
  });
});
