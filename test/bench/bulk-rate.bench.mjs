// Bulk changes against a rate-limited server (issue: bulk changes at production scale, the
// quota governor). For R = 2, 10 and 50 (`sandbox serve --rate-limit R`: R requests per
// second per token, then 429 with Retry-After):
// - one `campaigns patch --from-csv` process, batches sized so the run takes about 40 R
//   requests (R = 2: 20,000 rows in batches of 500, the run; more, smaller batches
//   for larger R);
// - the same rows split in four, four processes at once sharing one profile, token and
//   state folder (README's `split | xargs -P` pattern).
// Each scenario starts with an empty state folder: the budget is learnt during the run.
// Counted from the sandbox's own request log (every API request it answered, and its
// status): requests, 429s, and accepted requests per second from the first request to the
// last answer, against R.
// Targets: one process <= 5% 429s and >= 85% of R; four processes <= 10% and >= 80% of R.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, platform, startSandbox, tempDir } from './lib.mjs';

const LIMITS = (process.env.RATE_LIMITS ?? '2,10,50').split(',').map(Number);
const ROWS = Number(process.env.RATE_ROWS) || 20_000;
/** About this many seconds of requests at the limit per scenario. */
const SECONDS = Number(process.env.RATE_SECONDS) || 20;
const PROCESSES = 4;

/** Rows per batch so that ROWS take about SECONDS * R requests (the API's largest batch is 500). */
const batchSizeFor = (limit) => Math.min(500, Math.max(1, Math.ceil(ROWS / (SECONDS * limit))));

function run(args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('exit', (code) => (code === 0 ? resolve(stderr) : reject(new Error(`platform ${args.join(' ')} exited ${code}\n${stderr}`))));
  });
}

async function scenario(limit, processes) {
  const dir = tempDir();
  const log = [];
  const env = { PLATFORM_CONFIG_DIR: path.join(dir, 'config'), XDG_STATE_HOME: path.join(dir, 'state'), HOME: dir };
  const sandbox = await startSandbox(env, ['--campaigns', String(ROWS), '--seed', '9', '--rate-limit', String(limit)], {
    onLog: (line) => {
      const match = /^(\S+) (\S+) (\d+|dropped)/.exec(line);
      if (match && !match[2].startsWith('/oauth') && !match[2].startsWith('/_sandbox')) log.push({ at: performance.now(), method: match[1], status: match[3] });
    },
  });
  env.PLATFORM_BASE_URL = sandbox.url;
  try {
    // Setup (not counted): the account, one token cached for every process, the ids.
    const [account] = JSON.parse(platform(['ads', 'accounts', 'list', '--json'], env));
    const list = spawnSync(process.execPath, [bin, 'ads', 'campaigns', 'list', '--account', account.ad_account_id, '--all', '-o', 'csv'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      maxBuffer: 1 << 30,
    });
    if (list.status !== 0) throw new Error(`list failed: ${list.stderr}`);
    const ids = list.stdout
      .trim()
      .split('\n')
      .slice(1)
      .map((line) => line.split(',')[0]);
    if (ids.length !== ROWS) throw new Error(`expected ${ROWS} campaigns, got ${ids.length}`);
    fs.rmSync(env.XDG_STATE_HOME, { recursive: true, force: true }); // the setup's budget is not the run's
    await new Promise((resolve) => setTimeout(resolve, 1500)); // the setup's requests leave the window
    const batchSize = batchSizeFor(limit);
    const files = Array.from({ length: processes }, (_, p) => {
      const file = path.join(dir, `part-${p}.csv`);
      const part = ids.filter((_, i) => i % processes === p);
      fs.writeFileSync(file, ['campaign_id,name', ...part.map((id, i) => `${id},Rate ${limit} ${p} ${i}`)].join('\n') + '\n');
      return file;
    });
    const from = log.length;
    const started = performance.now();
    const summaries = await Promise.all(
      files.map((file) =>
        run(['ads', 'campaigns', 'patch', '--account', account.ad_account_id, '--from-csv', file, '--batch-size', String(batchSize), '-o', 'ndjson'], env),
      ),
    );
    const wallMs = performance.now() - started;
    const entries = log.slice(from);
    const refused = entries.filter((e) => e.status === '429').length;
    const accepted = entries.filter((e) => /^2/.test(e.status)).length;
    // From the first request the sandbox answered to the last (start-up and validation are not the server's to limit).
    const spanMs = entries.at(-1).at - entries[0].at;
    // The writes alone: once the reads of the current values are done, nothing else limits the pace.
    const writes = entries.filter((e) => e.method === 'PATCH');
    const writesPerSecond = (writes.filter((e) => /^2/.test(e.status)).length * 1000) / (writes.at(-1).at - writes[0].at);
    return {
      limit,
      processes,
      batchSize,
      requests: entries.length,
      refused,
      share: refused / entries.length,
      perSecond: (accepted * 1000) / spanMs,
      writesPerSecond,
      wallMs,
      summary: summaries[0].trim().split('\n').pop(),
    };
  } finally {
    await sandbox.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const results = [];
for (const limit of LIMITS) {
  for (const processes of [1, PROCESSES]) {
    const result = await scenario(limit, processes);
    results.push(result);
    console.error(`R=${limit}, ${processes} process(es): ${result.requests} requests, ${result.refused} 429s; ${result.summary}`);
  }
}

const rows = [['R (req/s)', 'processes', 'rows/batch', 'requests', '429s', '429 share', 'accepted/s', 'of R', 'writes/s', 'of R', 'wall s', 'target', '']];
for (const r of results) {
  const [maxShare, minOfR] = r.processes === 1 ? [0.05, 0.85] : [0.1, 0.8];
  const ofR = r.perSecond / r.limit;
  const ok = r.share <= maxShare && ofR >= minOfR;
  rows.push([
    r.limit,
    r.processes,
    r.batchSize,
    r.requests,
    r.refused,
    `${(r.share * 100).toFixed(1)}%`,
    r.perSecond.toFixed(2),
    `${(ofR * 100).toFixed(0)}%`,
    r.writesPerSecond.toFixed(2),
    `${((r.writesPerSecond / r.limit) * 100).toFixed(0)}%`,
    (r.wallMs / 1000).toFixed(1),
    `<= ${maxShare * 100}%, >= ${minOfR * 100}%`,
    ok ? 'ok' : 'MISSED',
  ]);
}
const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => String(r[c]).length)));
console.log(`Bulk patch of ${ROWS} rows against sandbox serve --rate-limit R (counted from the sandbox's request log; a fresh state folder each)`);
for (const r of rows) console.log(r.map((cell, c) => (c === 0 ? String(cell).padEnd(widths[c]) : String(cell).padStart(widths[c]))).join('  '));
