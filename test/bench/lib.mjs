// Helpers for benchmarks: interleaved process timing, medians, ratio tables, a sandbox.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const root = path.resolve(import.meta.dirname, '../..');
export const bin = path.join(root, 'bin/platform.js');

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export function tempDir(prefix = 'platform-bench-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** This process's environment with `env` over it; a variable set to undefined there is left out. */
function withEnv(env = {}) {
  const merged = { ...process.env, ...env };
  for (const [name, value] of Object.entries(merged)) if (value === undefined) delete merged[name];
  return merged;
}

/** Runs one process to the end and returns its wall time in ms; throws when it fails. */
export function timeProcess({ name, argv, env, input, expectStatus = 0 }) {
  const started = process.hrtime.bigint();
  const result = spawnSync(argv[0], argv.slice(1), { env: withEnv(env), input, stdio: ['pipe', 'pipe', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== expectStatus) {
    throw new Error(`${name}: exited ${result.status ?? result.signal}, expected ${expectStatus}\n${result.stderr}`);
  }
  return ms;
}

/**
 * Times each case `runs` times, interleaved: every round runs every case once, in an order
 * rotated each round, so drifts of the machine (CPU frequency, caches, other load) fall on
 * all cases alike. `warmup` untimed rounds first. Returns the median ms of each case.
 */
export function timeInterleaved(cases, { runs = Number(process.env.BENCH_RUNS) || 25, warmup = 2 } = {}) {
  const samples = new Map(cases.map((c) => [c.name, []]));
  for (let round = 0; round < warmup + runs; round++) {
    for (let i = 0; i < cases.length; i++) {
      const c = cases[(i + round) % cases.length];
      const ms = timeProcess(c);
      if (round >= warmup) samples.get(c.name).push(ms);
    }
  }
  return { runs, medians: new Map([...samples].map(([name, values]) => [name, median(values)])) };
}

/** Prints medians and their ratio to the baseline case, with each row's target, as a table. */
export function printRatios({ title, baseline, medians, targets = {}, runs, nodeVersion = process.version }) {
  const base = medians.get(baseline);
  const rows = [['command', 'median ms', 'x baseline', 'target', '']];
  let missed = 0;
  for (const [name, ms] of medians) {
    const ratio = ms / base;
    const target = targets[name];
    const verdict = target === undefined ? '' : ratio <= target ? 'ok' : 'MISSED';
    if (verdict === 'MISSED') missed++;
    rows.push([name, ms.toFixed(1), name === baseline ? '1.00' : ratio.toFixed(2), target === undefined ? '' : `<= ${target}`, verdict]);
  }
  const widths = rows[0].map((_, col) => Math.max(...rows.map((r) => r[col].length)));
  console.log(`${title} (median of ${runs} interleaved runs each; node ${nodeVersion}, ${os.cpus().length} CPUs)`);
  for (const row of rows)
    console.log(
      row
        .map((cell, col) => (col === 0 ? cell.padEnd(widths[col]) : cell.padStart(widths[col])))
        .join('  ')
        .trimEnd(),
    );
  return missed;
}

/**
 * `platform sandbox serve --port 0` as a child process; resolves with its URL once it listens.
 * `onLog` gets each line of its request log (`METHOD /path STATUS 3ms`) as it comes.
 */
export async function startSandbox(env, args = [], { onLog } = {}) {
  const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    let partial = '';
    child.stderr.on('data', (chunk) => {
      err += chunk;
      if (!onLog) return;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) onLog(line);
    });
    child.on('exit', (code) => reject(new Error(`the sandbox exited ${code} before listening\n${err}`)));
  });
  return {
    url,
    pid: child.pid,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGINT');
      }),
  };
}

/** Runs the CLI once (untimed) and returns its stdout; throws when it fails. */
export function platform(args, env) {
  const result = spawnSync(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`platform ${args.join(' ')} exited ${result.status}\n${result.stderr}`);
  return result.stdout;
}

/**
 * The Node binaries a benchmark runs its commands under, one per supported line: this
 * process's own (the machine's Node 20), then Node 22 and 24. $PLATFORM_BENCH_NODES, a
 * comma-separated list of paths to node binaries, names the others (empty: this one alone).
 * Without it they are the versions .ci/run pins (its NODE_22= and NODE_24= lines), installed
 * as CI installs them, from the npm registry's node-<os>-<arch> package, once, into
 * <OS temp folder>/platform-bench-node/; a line that cannot be installed (no registry) is
 * left out, saying so on stderr. Returns [{ version: 'v24.21.0', path }], this process's first.
 */
export function nodeLines() {
  const paths = process.env.PLATFORM_BENCH_NODES !== undefined ? process.env.PLATFORM_BENCH_NODES.split(',').filter(Boolean) : pinnedNodes();
  const lines = [{ version: process.version, path: process.execPath }];
  for (const node of paths) {
    const result = spawnSync(node, ['--version'], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`${node} --version exited ${result.status ?? result.error}`);
    const version = result.stdout.trim();
    if (!lines.some((line) => line.version === version)) lines.push({ version, path: node });
  }
  return lines;
}

/** The node binaries of the versions .ci/run pins, installed under the OS temp folder if not there yet. */
function pinnedNodes() {
  const ci = fs.readFileSync(path.join(root, '.ci/run'), 'utf8');
  const versions = [...ci.matchAll(/^NODE_\d+=(\d+\.\d+\.\d+)$/gm)].map((match) => match[1]);
  if (versions.length === 0) throw new Error('.ci/run pins no NODE_<line>= version: update nodeLines() in test/bench/lib.mjs');
  const npmPackage = `node-${process.platform}-${process.arch}`;
  const cache = path.join(os.tmpdir(), 'platform-bench-node');
  const nodes = [];
  for (const version of versions) {
    const dir = path.join(cache, `${npmPackage}@${version}`);
    const node = path.join(dir, 'node_modules', npmPackage, 'bin', 'node');
    if (!fs.existsSync(node)) {
      // Installed beside, then renamed into place: a bench run stopped half-way, or two at once, leave no half an install.
      fs.mkdirSync(cache, { recursive: true });
      const partial = fs.mkdtempSync(path.join(cache, `${npmPackage}@${version}.partial-`));
      console.error(`installing ${npmPackage}@${version} into ${dir} (once)`);
      const install = spawnSync(
        'npm',
        ['install', '--prefix', partial, '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', `${npmPackage}@${version}`],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      );
      if (install.status === 0) {
        try {
          fs.renameSync(partial, dir);
        } catch (error) {
          if (!fs.existsSync(node)) throw error;
        }
      }
      fs.rmSync(partial, { recursive: true, force: true });
      if (!fs.existsSync(node)) {
        console.error(`Node ${version} is not measured: npm could not install ${npmPackage}@${version} (set PLATFORM_BENCH_NODES to node binaries)`);
        continue;
      }
    }
    nodes.push(node);
  }
  return nodes;
}
