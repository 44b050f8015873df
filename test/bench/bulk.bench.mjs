// Bulk patch throughput and memory (issue: bulk campaign updates).
// - 100,000-row `campaigns patch --from-csv` against `sandbox serve --campaigns 100000`:
//   rows/s and peak RSS of the CLI process;
// - the naive loop: the same CLI and client sending one PATCH per row, one at a time
//   (`--batch-size 1 --concurrency 1`), over a 5,000-row sample, as rows/s;
// - a minimal raw client (raw-client.mjs: the same batches and concurrency, no validation,
//   no journal, no results) sending the same 100,000 rows: the CLI's wall time as a ratio;
//   naive, bulk and raw runs are interleaved, BENCH_ROUNDS (default 3) of each, medians kept;
//   the bulk runs keep their journal (the default: in $XDG_STATE_HOME/platform/runs);
// - the same raw client reading the current campaigns first, as every patch row is read
//   (pages of 2,000, parsed, not compared), reads and writes overlapping: the least any
//   client that reads before it writes takes, so the CLI's own share of the gap can be read;
// - the bulk patch run again on its own input: every row is unchanged, so the CLI starts,
//   validates, reads and judges every row but sends nothing: what the CLI costs before its
//   first write, against the raw client's whole run;
// - the bulk patch of an input whose last row is invalid: the CLI starts, validates every
//   row and refuses the run, sending nothing. Every row is validated before the first request
//   (bad input: nothing sent), so this plus the raw client reading first's own requests
//   (its wall time after its first request) is the least the CLI could take;
// - a hand-written client giving the same guarantees for this one input (same-work-client.mjs:
//   rows checked before the first request, hashed, compared, journalled with fsync before
//   each batch, a result per row): the work itself, without the CLI; run twice, reading the
//   file twice (memory flat, as the CLI's) and holding every row in memory;
// - a 1,000,000-row `--dry-run` (validation plus current-value lookups): time and peak RSS.
// Each run's own CPU time (user + system) is reported beside its wall time: the client
// shares the machine's cores with the sandbox, so CPU time is what the client itself costs.
// Targets: >= 25x the naive loop; peak RSS < 150 MB for both runs; <= 1.5x the raw client;
// <= 1.3x the raw client reading first (the fair peer: it reads before it writes, as the CLI must).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, median, platform, startSandbox, tempDir } from './lib.mjs';

const ROWS = Number(process.env.BULK_ROWS) || 100_000;
const NAIVE_ROWS = Number(process.env.NAIVE_ROWS) || 5_000;
const DRY_ROWS = Number(process.env.DRY_ROWS) || 1_000_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS) || 3;
const dir = tempDir();
const env = { PLATFORM_CONFIG_DIR: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state') };
const sandbox = await startSandbox(env, ['--campaigns', String(ROWS), '--seed', '9']);
env.PLATFORM_BASE_URL = sandbox.url;

/**
 * CPU time (ms) the sandbox process has used so far, from /proc (Linux; undefined elsewhere):
 * what the server itself spends on a run bounds how fast any client can finish it.
 */
const clockTicks = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;
function sandboxCpuMs() {
  try {
    const stat = fs.readFileSync(`/proc/${sandbox.pid}/stat`, 'utf8');
    const [utime, stime] = stat
      .slice(stat.lastIndexOf(')') + 2)
      .split(' ')
      .slice(11, 13)
      .map(Number);
    return ((utime + stime) * 1000) / clockTicks;
  } catch {
    return undefined;
  }
}

/** Runs the CLI (or another script) with stdout to a file; returns wall ms, peak RSS (MB), its own CPU ms and the sandbox's CPU ms meanwhile. */
function measure(name, args, script = bin, expectExit = 0) {
  const rssFile = path.join(dir, `${name}.rss`);
  const cpuFile = path.join(dir, `${name}.cpu`);
  const out = fs.openSync(path.join(dir, `${name}.out`), 'w');
  return new Promise((resolve, reject) => {
    const cpuBefore = sandboxCpuMs();
    const started = process.hrtime.bigint();
    const preload = ['peak-rss.mjs', 'cpu-usage.mjs'].flatMap((file) => ['--import', path.join(import.meta.dirname, file)]);
    const child = spawn(process.execPath, [...preload, script, ...args], {
      env: { ...process.env, ...env, PEAK_RSS_FILE: rssFile, CPU_USAGE_FILE: cpuFile },
      stdio: ['ignore', out, 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== expectExit) return reject(new Error(`${name} exited ${code}\n${stderr}`));
      const sandboxMs = cpuBefore === undefined ? undefined : sandboxCpuMs() - cpuBefore;
      const cpuMs = Number(fs.readFileSync(cpuFile, 'utf8'));
      resolve({ ms, rssMb: Number(fs.readFileSync(rssFile, 'utf8')) / 1024, cpuMs, sandboxMs, summary: stderr.trim().split('\n').pop() });
    });
  });
}

try {
  const [account] = JSON.parse(platform(['ads', 'accounts', 'list', '--json'], env));
  const list = spawnSync(process.execPath, [bin, 'ads', 'campaigns', 'list', '--account', account.ad_account_id, '--all', '-o', 'csv'], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (list.status !== 0) throw new Error(`list failed: ${list.stderr}`);
  const listed = list.stdout.trim().split('\n').slice(1);
  const ids = listed.map((line) => line.split(',')[0]);
  if (ids.length !== ROWS) throw new Error(`expected ${ROWS} campaigns, got ${ids.length}`);
  const csv = (n, tag) =>
    ['campaign_id,name,status', ...Array.from({ length: n }, (_, i) => `${ids[i % ids.length]},${tag} ${i},${i % 2 ? 'paused' : 'active'}`)].join('\n') + '\n';
  // A new name on every row of every round: a patch that would change nothing is not sent.
  const bulkFile = (round) => {
    const file = path.join(dir, `bulk-${round}.csv`);
    fs.writeFileSync(file, csv(ROWS, `Bulk r${round}`));
    return file;
  };
  const naiveFile = path.join(dir, 'naive.csv');
  fs.writeFileSync(naiveFile, csv(NAIVE_ROWS, 'Naive'));
  // The bulk input with its last row's status misspelt: refused after every row is validated.
  const invalidFile = path.join(dir, 'invalid.csv');
  fs.writeFileSync(invalidFile, csv(ROWS, 'Invalid').replace(/,(active|paused)\n$/, ',bogus\n'));
  const dryFile = path.join(dir, 'dry.csv');
  fs.writeFileSync(dryFile, csv(DRY_ROWS, 'Dry'));
  const base = ['ads', 'campaigns', 'patch', '--account', account.ad_account_id, '-o', 'ndjson'];
  const token = platform(['auth', 'token'], env).trim();

  const naiveRuns = [];
  const bulkRuns = [];
  const rawRuns = [];
  const rawReadRuns = [];
  const sameWorkRuns = [];
  const sameInMemoryRuns = [];
  const unchangedRuns = [];
  const validationRuns = [];
  for (let round = 0; round < ROUNDS; round++) {
    naiveRuns.push(await measure('naive', [...base, '--from-csv', naiveFile, '--batch-size', '1', '--concurrency', '1']));
    const file = bulkFile(round);
    bulkRuns.push(await measure('bulk', [...base, '--from-csv', file]));
    unchangedRuns.push(await measure('unchanged', [...base, '--from-csv', file]));
    validationRuns.push(await measure('validation', [...base, '--from-csv', invalidFile], bin, 2));
    const rawArgs = [sandbox.url, token, account.ad_account_id, bulkFile(`raw-${round}`), '500', '4'];
    rawRuns.push(await measure('raw', rawArgs, path.join(import.meta.dirname, 'raw-client.mjs')));
    const readArgs = [sandbox.url, token, account.ad_account_id, bulkFile(`raw-read-${round}`), '500', '4', 'read-first'];
    rawReadRuns.push(await measure('raw-read', readArgs, path.join(import.meta.dirname, 'raw-client.mjs')));
    const sameWorkArgs = (memory) => [
      sandbox.url,
      token,
      account.ad_account_id,
      bulkFile(`${memory}-${round}`),
      '500',
      '4',
      path.join(dir, `${memory}-${round}.journal`),
      memory,
    ];
    sameWorkRuns.push(await measure('same-work', sameWorkArgs('two-pass'), path.join(import.meta.dirname, 'same-work-client.mjs')));
    sameInMemoryRuns.push(await measure('same-in-memory', sameWorkArgs('in-memory'), path.join(import.meta.dirname, 'same-work-client.mjs')));
  }
  const summarize = (runs) => ({
    ms: median(runs.map((r) => r.ms)),
    rssMb: Math.max(...runs.map((r) => r.rssMb)),
    cpuMs: median(runs.map((r) => r.cpuMs)),
    sandboxMs: runs[0].sandboxMs === undefined ? undefined : median(runs.map((r) => r.sandboxMs)),
    summary: runs.at(-1).summary,
  });
  const naive = summarize(naiveRuns);
  const bulk = summarize(bulkRuns);
  const raw = summarize(rawRuns);
  const rawRead = summarize(rawReadRuns);
  const sameWork = summarize(sameWorkRuns);
  const sameInMemory = summarize(sameInMemoryRuns);
  const unchanged = summarize(unchangedRuns);
  const validation = summarize(validationRuns);
  // The raw client reading first reports when it sent its first request (ms since it started).
  const rawFirstRequest = median(rawReadRuns.map((r) => Number(/first request at (\d+) ms/.exec(r.summary)?.[1])));
  const dry = await measure('dry-run', [...base, '--from-csv', dryFile, '--dry-run']);

  const naiveRate = NAIVE_ROWS / (naive.ms / 1000);
  const bulkRate = ROWS / (bulk.ms / 1000);
  const line = (name, n, run, target = '') => [
    name,
    n,
    (run.ms / 1000).toFixed(1),
    (n / (run.ms / 1000)).toFixed(0),
    (run.cpuMs / 1000).toFixed(2),
    run.rssMb.toFixed(0),
    target,
  ];
  const rssTarget = (run) => `RSS < 150: ${run.rssMb < 150 ? 'ok' : 'MISSED'}`;
  const rows = [
    ['run', 'rows', 'seconds', 'rows/s', 'CPU s', 'peak RSS MB', 'target'],
    line('naive loop (1 PATCH per row)', NAIVE_ROWS, naive),
    line('bulk patch (defaults)', ROWS, bulk, rssTarget(bulk)),
    line('raw client (same batches, no validation)', ROWS, raw),
    line('bulk patch, every row unchanged (nothing sent)', ROWS, unchanged),
    line('bulk patch, last row invalid (validated, nothing sent)', ROWS, validation),
    line('raw client reading first', ROWS, rawRead),
    line('same work by hand, file read twice (flat memory)', ROWS, sameWork),
    line('same work by hand, every row in memory', ROWS, sameInMemory),
    line('dry run', DRY_ROWS, dry, rssTarget(dry)),
  ].map((r) => r.map(String));
  const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  console.log(`Bulk campaign patch against the sandbox (CLI process wall time incl. start-up; median of ${ROUNDS} interleaved rounds, peak RSS the largest)`);
  for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  '));
  const ratio = bulkRate / naiveRate;
  console.log(`bulk / naive throughput: ${ratio.toFixed(1)}x (target >= 25x: ${ratio >= 25 ? 'ok' : 'MISSED'})`);
  const overRaw = bulk.ms / raw.ms;
  console.log(`CLI wall time / raw client: ${overRaw.toFixed(2)}x (target <= 1.5x: ${overRaw <= 1.5 ? 'ok' : 'MISSED'})`);
  console.log(`reading first alone: raw client reading first / raw client ${(rawRead.ms / raw.ms).toFixed(2)}x`);
  const overRead = bulk.ms / rawRead.ms;
  console.log(`CLI wall time / raw client reading first: ${overRead.toFixed(2)}x (target <= 1.3x: ${overRead <= 1.3 ? 'ok' : 'MISSED'})`);
  console.log(
    `CPU time of the client: CLI ${(bulk.cpuMs / 1000).toFixed(2)} s, raw client reading first ${(rawRead.cpuMs / 1000).toFixed(2)} s ` +
      `(${(bulk.cpuMs / rawRead.cpuMs).toFixed(2)}x); a round's wall time per CLI run: ${bulkRuns.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s, ` +
      `raw client reading first: ${rawReadRuns.map((r) => (r.ms / 1000).toFixed(1)).join(', ')} s`,
  );
  // A script that gives the same guarantees for this one input: how much of the gap is the work itself.
  console.log(
    `same work by hand (same-work-client.mjs), file read twice: ${(sameWork.ms / rawRead.ms).toFixed(2)}x the raw client reading first, ` +
      `every row in memory: ${(sameInMemory.ms / rawRead.ms).toFixed(2)}x; ` +
      `the CLI takes ${(bulk.ms / sameWork.ms).toFixed(2)}x the first's wall time and ${(bulk.cpuMs / sameWork.cpuMs).toFixed(2)}x its CPU`,
  );
  console.log(`before any write: CLI with every row unchanged / raw client ${(unchanged.ms / raw.ms).toFixed(2)}x`);
  // No request before every row is validated: the CLI's validation, then the peer's requests.
  const floor = validation.ms + (rawRead.ms - rawFirstRequest);
  console.log(
    `least the CLI could take: its validation alone ${(validation.ms / 1000).toFixed(2)} s + the raw client reading first's requests ` +
      `${((rawRead.ms - rawFirstRequest) / 1000).toFixed(2)} s (its first at ${rawFirstRequest.toFixed(0)} ms) = ${(floor / 1000).toFixed(2)} s, ` +
      `${(floor / rawRead.ms).toFixed(2)}x the raw client reading first; the CLI takes ${(bulk.ms / floor).toFixed(2)}x that`,
  );
  if (raw.sandboxMs !== undefined) {
    // The server's own time: a client that reads before it writes cannot finish before the
    // sandbox has served the read and the writes, whatever the client does.
    console.log(
      `sandbox CPU per run: raw client ${(raw.sandboxMs / 1000).toFixed(2)} s, raw client reading first ${(rawRead.sandboxMs / 1000).toFixed(2)} s, CLI ${(bulk.sandboxMs / 1000).toFixed(2)} s; ` +
        `the server's work for a read plus the writes alone is ${(rawRead.sandboxMs / raw.ms).toFixed(2)}x the raw client's wall time`,
    );
  }
  console.log(`last bulk run's own summary: "${bulk.summary}"`);
} finally {
  await sandbox.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
