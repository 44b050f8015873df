// Downloading a report of at least 100 MB: `platform ads reports download ID --out FILE`
// (a whole process: start-up, the status read that mints the URL, the streamed download)
// against a plain `curl -o FILE URL` of a fresh URL of the same report, interleaved runs,
// in the same process group. Targets (issue "Ads reporting"): >= 0.8x curl's speed, i.e. at
// most 1.25x its time, and under 100 MB peak RSS.
// A third line times the floor of any Node client that reads a socket through its 'data'
// events (as undici and node:http both do): a bare net socket sending the GET and counting
// the bytes, no HTTP parsing; once without a disk and once writing each chunk to a file as it
// comes (as curl -o does), so the ratio can be read against what Node itself allows on this
// machine.
//   BENCH_RUNS (default 5): timed runs of each.
//   BENCH_REPORT_DAYS (default 11, 115 MB): days in the report; a longer report spreads the
//   CLI's start-up and status read over more bytes in the whole-process figure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bin, median, platform, startSandbox, tempDir } from './lib.mjs';

const runs = Number(process.env.BENCH_RUNS) || 5;
const days = Number(process.env.BENCH_REPORT_DAYS) || 11;
const UNTIL = new Date(Date.UTC(2025, 0, 13 + days - 1)).toISOString().slice(0, 10);
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const COLUMNS =
  'day_of,campaign_id,campaign_name,currency_code,impressions,clicks,click_through_rate,ad_spend,cost_per_click,cost_per_mille,orders_7d_on_click_date,sales_7d_on_click_date';

// Connects, sends the GET, counts the response's bytes (and writes them to FILE, if given)
// until the body's size is in, prints ms.
const SOCKET_FLOOR = `
import fs from 'node:fs';
import net from 'node:net';
const [url, size, file] = process.argv.slice(1);
const fd = file ? fs.openSync(file, 'w') : undefined;
const { hostname, port, pathname, host } = new URL(url);
const started = performance.now();
let bytes = 0;
const socket = net.connect({ host: hostname, port: Number(port) }, () => socket.write('GET ' + pathname + ' HTTP/1.1\\r\\nHost: ' + host + '\\r\\nConnection: close\\r\\n\\r\\n'));
socket.on('data', (chunk) => { bytes += chunk.length; if (fd !== undefined) fs.writeSync(fd, chunk); });
socket.on('close', () => {
  if (bytes < Number(size)) throw new Error('short read: ' + bytes);
  console.log((performance.now() - started).toFixed(1));
});
`;

if (spawnSync('curl', ['--version']).status !== 0) {
  console.error('curl is needed as the baseline: sudo apt-get install -y curl');
  process.exit(1);
}

const dir = tempDir('platform-bench-report-');
const sandbox = await startSandbox({}, ['--campaigns', '100000', '--time-scale', '1000']);
const env = { PLATFORM_BASE_URL: sandbox.url, PLATFORM_CONFIG_DIR: path.join(dir, 'config'), HOME: dir };
try {
  const id = platform(
    ['ads', 'reports', 'create', '--account', ACCOUNT, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', COLUMNS, '--since', '2025-01-13', '--until', UNTIL],
    env,
  ).trim();
  let status;
  for (let i = 0; i < 600; i++) {
    status = JSON.parse(platform(['ads', 'reports', 'get', id, '--account', ACCOUNT, '-o', 'json'], env));
    if (status.status !== 'PROCESSING') break;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  if (status.status !== 'COMPLETED') throw new Error(`report ${id} is ${status.status}`);
  const size = Number(status.result.success_result.file_size);
  console.log(`report ${id}: ${(size / 1e6).toFixed(1)} MB (${size} bytes)`);

  const cliFile = path.join(dir, 'cli.csv');
  const curlFile = path.join(dir, 'curl.csv');
  const rssFile = path.join(dir, 'rss');
  const samples = { curl: [], cli: [] };
  const floor = [];
  const floorToDisk = [];
  // The transfer alone: curl's own time_total, and the time the CLI reports on its "Saved" line.
  const transfer = { curl: [], cli: [] };
  const rss = [];
  const timeIt = (argv, extraEnv = {}) => {
    const started = process.hrtime.bigint();
    const result = spawnSync(argv[0], argv.slice(1), { env: { ...process.env, ...env, ...extraEnv }, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== 0) throw new Error(`${argv.join(' ')} exited ${result.status}\n${result.stderr}`);
    return { ms, stdout: result.stdout, stderr: result.stderr };
  };
  // Each run writes a new file: freeing the previous 100 MB (a truncation for curl, a rename
  // over it for the CLI) is the file system's cost, not the download's.
  const fresh = (file) => fs.rmSync(file, { force: true });
  const freshUrl = () => JSON.parse(platform(['ads', 'reports', 'get', id, '--account', ACCOUNT, '-o', 'json'], env)).result.success_result.report_url;
  const curl = () => {
    fresh(curlFile);
    // A fresh URL (untimed), as the CLI gets one with its own status read (timed).
    const url = freshUrl();
    const run = timeIt(['curl', '-sS', '--fail', '-o', curlFile, '-w', '%{time_total}', url]);
    transfer.curl.push(Number(run.stdout) * 1000);
    return run.ms;
  };
  const socketFloor = () => {
    const run = timeIt([process.execPath, '--input-type=module', '-e', SOCKET_FLOOR, freshUrl(), String(size)]);
    floor.push(Number(run.stdout));
    const floorFile = path.join(dir, 'floor.csv');
    fresh(floorFile);
    floorToDisk.push(Number(timeIt([process.execPath, '--input-type=module', '-e', SOCKET_FLOOR, freshUrl(), String(size), floorFile]).stdout));
    fresh(floorFile);
  };
  const cli = () => {
    fresh(cliFile);
    const run = timeIt(
      [
        process.execPath,
        '--import',
        path.join(import.meta.dirname, 'peak-rss.mjs'),
        bin,
        'ads',
        'reports',
        'download',
        id,
        '--account',
        ACCOUNT,
        '--out',
        cliFile,
      ],
      {
        PEAK_RSS_FILE: rssFile,
      },
    );
    rss.push(Number(fs.readFileSync(rssFile, 'utf8')) / 1024);
    transfer.cli.push(Number(/in ([\d.]+) s,/.exec(run.stderr)[1]) * 1000);
    return run.ms;
  };
  // One untimed round of each, then interleaved rounds in alternating order.
  curl();
  cli();
  for (let round = 0; round < runs; round++) {
    const order =
      round % 2
        ? [
            ['cli', cli],
            ['curl', curl],
          ]
        : [
            ['curl', curl],
            ['cli', cli],
          ];
    for (const [name, fn] of order) samples[name].push(fn());
    socketFloor();
  }
  if (fs.statSync(cliFile).size !== size || fs.statSync(curlFile).size !== size) throw new Error('a download has the wrong size');
  const curlMs = median(samples.curl);
  const cliMs = median(samples.cli);
  const speed = median(transfer.curl) / median(transfer.cli);
  const peak = Math.max(...rss);
  const mbps = (ms) => (size / 1e6 / (ms / 1000)).toFixed(0);
  console.log(`download of ${(size / 1e6).toFixed(1)} MB (median of ${runs} interleaved runs each; node ${process.version})`);
  console.log(
    `  whole process: curl -o ${curlMs.toFixed(0)} ms, platform ... --out ${cliMs.toFixed(0)} ms (start-up and status read included): ${(curlMs / cliMs).toFixed(2)}x`,
  );
  console.log(
    `  transfer:      curl ${median(transfer.curl).toFixed(0)} ms (${mbps(median(transfer.curl))} MB/s), platform ${median(transfer.cli).toFixed(0)} ms (${mbps(median(transfer.cli))} MB/s)`,
  );
  console.log(
    `  floor:         a bare Node socket reading the same bytes (no HTTP, no disk) ${median(floor).toFixed(0)} ms: ${(median(transfer.curl) / median(floor)).toFixed(2)}x curl`,
  );
  console.log(
    `                 the same socket writing each chunk to a file ${median(floorToDisk).toFixed(0)} ms: ${(median(transfer.curl) / median(floorToDisk)).toFixed(2)}x curl`,
  );
  console.log(`  download speed vs curl  ${speed.toFixed(2)}x  (target >= 0.8x: ${speed >= 0.8 ? 'ok' : 'MISSED'})`);
  console.log(`  peak RSS of the CLI   ${peak.toFixed(1)} MB  (target < 100 MB: ${peak < 100 ? 'ok' : 'MISSED'})`);
} finally {
  await sandbox.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
