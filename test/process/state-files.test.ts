// State files are files (issue #42, item 4): what the CLI reads from its state and config
// folders, and the plans and journals a user names, is a regular file of a bounded size, read
// without following a link where it can be. Before, a request budget file that was a link to
// /dev/zero took a bulk patch to 16.8 GB and a crash, a FIFO hung it forever, and an 80 MB file
// cost 16 s and 346 MB. Now each run ends (exit 0) with one warning line and flat memory, and a
// plan, journal or config file that is a FIFO or a device is refused in one line (exit 2).
// Memory is the child's peak RSS (record-rss.mjs); times are not asserted (CONTRIBUTING.md),
// only bounded by a scaled deadline past which the child is killed, so a hang fails the test.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_PROFILE } from '../../src/config/profile.js';
import { budgetFile } from '../../src/http/governor-file.js';
import { tempDir } from '../helpers/temp.js';
import { cliEnv } from '../helpers/cli-process.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { scaled } from '../helpers/time-scale.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');
const recordRss = pathToFileURL(path.resolve(import.meta.dirname, '../helpers/record-rss.mjs')).href;
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const ROWS = 60;
/** A CLI run whose memory stays flat (a patch of ROWS rows takes ~70 MB); reading /dev/zero took GBs. */
const FLAT_RSS_KIB = 200 * 1024;
/** Past this the child is killed: a run that hangs (a FIFO opened for reading) fails instead of stalling the suite. */
const DEADLINE_MS = scaled(20_000);

let sandbox: SandboxProcess;
let dir: string;
let csv: string;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Peak resident memory of the CLI process, in KiB (undefined if it did not exit by itself). */
  maxRssKiB: number | undefined;
}

/** `platform ARGS` in `home` against the sandbox, recording its peak memory; killed past DEADLINE_MS. */
function run(args: string[], home = dir): Promise<Run> {
  const rssFile = path.join(home, `rss-${Math.random().toString(36).slice(2)}`);
  const env = { ...cliEnv(home, sandbox.url), RECORD_RSS_FILE: rssFile };
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', recordRss, bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const deadline = setTimeout(() => child.kill('SIGKILL'), DEADLINE_MS);
    child.once('close', (code, signal) => {
      clearTimeout(deadline);
      const rss = fs.existsSync(rssFile) ? Number(fs.readFileSync(rssFile, 'utf8')) : undefined;
      resolve({ code, signal, stdout, stderr, maxRssKiB: rss });
    });
  });
}

function mkfifo(file: string): void {
  // Node has no mkfifo.
  const made = spawnSync('mkfifo', [file], { encoding: 'utf8' });
  if (made.status !== 0) throw new Error(`mkfifo ${file}: ${made.stderr}`);
}

const lines = (text: string) => text.split('\n').filter((line) => line.trim());

beforeAll(async () => {
  dir = tempDir('platform-state-files-');
  sandbox = await startSandboxProcess(['--campaigns', String(ROWS)]);
  // The rows to patch (and a cached token in the config, so each run below is only the patch).
  const listed = await run(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'csv']);
  expect(listed.code, listed.stderr).toBe(0);
  const ids = lines(listed.stdout)
    .slice(1)
    .map((line) => line.split(',')[0]!);
  expect(ids).toHaveLength(ROWS);
  csv = path.join(dir, 'patch.csv');
  fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},State files ${i}`).join('\n')}\n`);
}, scaled(30_000));

afterAll(() => {
  sandbox?.stop();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A patch of every row, named differently each time so that each run sends them all. */
let patches = 0;
function patch(extra: string[] = []): Promise<Run> {
  patches++;
  const text = fs.readFileSync(csv, 'utf8').replace(/State files \d+/g, (name) => `${name}.${patches}`);
  const file = path.join(dir, `patch-${patches}.csv`);
  fs.writeFileSync(file, text);
  return run(['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', file, '-o', 'ndjson', ...extra]);
}

describe('the request budget file is a state file', () => {
  const budget = () => budgetFile(path.join(dir, 'state', 'platform', 'budgets'), LOCAL_PROFILE, new URL(sandbox.url).origin);
  const fresh = () => {
    fs.rmSync(budget(), { recursive: true, force: true });
    fs.mkdirSync(path.dirname(budget()), { recursive: true });
    return budget();
  };

  const cases: Array<[string, (file: string) => void, RegExp]> = [
    ['a symbolic link to /dev/zero', (file) => fs.symlinkSync('/dev/zero', file), /is a symbolic link, not followed: ignored, and replaced by a fresh budget$/],
    ['a FIFO', (file) => mkfifo(file), /is a FIFO \(named pipe\), not a regular file: ignored, and replaced by a fresh budget$/],
    // Sparse: 100 MB to read, none of it on the disk.
    [
      'a 100 MB file',
      (file) => fs.truncateSync((fs.writeFileSync(file, ''), file), 100 * 1024 * 1024),
      /is 100 MiB, over the 64 KiB it may be: ignored, and replaced by a fresh budget$/,
    ],
  ];

  it.each(cases)(
    'that is %s: a bulk patch ends (exit 0) with every row, one warning line and flat memory, and leaves a fresh budget file in its place',
    async (_, make, warning) => {
      const file = fresh();
      make(file);
      const result = await patch();
      expect(result.signal, 'killed past its deadline: it hung').toBeNull();
      expect(result.code, result.stderr).toBe(0);
      expect(lines(result.stdout)).toHaveLength(ROWS);
      const warnings = lines(result.stderr).filter((line) => line.includes(file));
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(warning);
      expect(result.maxRssKiB).toBeDefined();
      expect(result.maxRssKiB!).toBeLessThan(FLAT_RSS_KIB);
      // Replaced by a budget (a rename over the link, the FIFO or the file: never written through the link).
      const after = fs.lstatSync(file);
      expect(after.isFile()).toBe(true);
      expect(after.size).toBeLessThan(64 * 1024);
      // The next run reads it without a word.
      const next = await patch();
      expect(next.code, next.stderr).toBe(0);
      expect(lines(next.stderr).filter((line) => line.includes(file))).toEqual([]);
    },
    scaled(60_000),
  );

  it(
    'that is a folder: one warning line, and the run paces alone (exit 0)',
    async () => {
      const file = fresh();
      fs.mkdirSync(file);
      const result = await patch();
      expect(result.code, result.stderr).toBe(0);
      expect(lines(result.stdout)).toHaveLength(ROWS);
      expect(lines(result.stderr).filter((line) => line.includes(file))).toEqual([
        `request budget file ${file} is a directory, not a regular file: ignored, this process paces alone`,
      ]);
      expect(fs.statSync(file).isDirectory()).toBe(true);
    },
    scaled(60_000),
  );
});

describe('files a run is given to read are refused in one line when they are not regular files', () => {
  const refusedAtOnce = (result: Run) => {
    expect(result.signal, 'killed past its deadline: it hung').toBeNull();
    expect(result.code, result.stderr).toBe(2);
    expect(lines(result.stderr)).toHaveLength(1);
    return lines(result.stderr)[0];
  };

  it(
    'a plan file that is a FIFO: `ads apply FIFO` exits 2 naming it, without waiting for a writer',
    async () => {
      const fifo = path.join(dir, 'plan.fifo');
      mkfifo(fifo);
      const result = await run(['ads', 'apply', fifo]);
      expect(refusedAtOnce(result)).toContain(`${fifo} is a FIFO (named pipe), not a regular file`);
    },
    scaled(30_000),
  );

  it(
    'a journal to resume that is a FIFO, or a link to /dev/zero: exit 2 naming it, nothing read',
    async () => {
      const fifo = path.join(dir, 'journal.fifo');
      mkfifo(fifo);
      expect(refusedAtOnce(await patch(['--resume', fifo]))).toBe(`--resume: ${fifo} is a FIFO (named pipe), not a regular file`);
      const zero = path.join(dir, 'journal.zero');
      fs.symlinkSync('/dev/zero', zero);
      const result = await patch(['--resume', zero]);
      expect(refusedAtOnce(result)).toBe(`--resume: ${zero} is a character device, not a regular file`);
      expect(result.maxRssKiB!).toBeLessThan(FLAT_RSS_KIB);
    },
    scaled(30_000),
  );

  it(
    'a journal to resume, a plan and a results file of 160 MB with no newline: exit 2 naming it, with flat memory',
    async () => {
      // Sparse, after a first line's start: readline held the whole line (727 MB for 300 MB) before its parse failed.
      const noNewline = (name: string, start: string) => {
        const file = path.join(dir, name);
        fs.writeFileSync(file, start);
        fs.truncateSync(file, 160 * 1024 * 1024);
        return file;
      };
      const journal = noNewline('long.journal', '{"type":"run","pad":"');
      const resumed = await patch(['--resume', journal]);
      expect(refusedAtOnce(resumed)).toBe(`--resume: ${journal} is not a journal of a bulk run (line 1)`);
      expect(resumed.maxRssKiB!).toBeLessThan(FLAT_RSS_KIB);
      const results = noNewline('long.ndjson', '{"line":2,');
      const fromResults = await patch(['--resume', results]);
      expect(refusedAtOnce(fromResults)).toBe(`--resume: ${results} is not a results file of this command (line 1 is longer than 16 MiB)`);
      expect(fromResults.maxRssKiB!).toBeLessThan(FLAT_RSS_KIB);
      const plan = noNewline('long.plan', '{"type":"plan","pad":"');
      const applied = await run(['ads', 'apply', plan]);
      expect(refusedAtOnce(applied)).toMatch(new RegExp(`^${plan}: line 1 is longer than 16 MiB`));
      expect(applied.maxRssKiB!).toBeLessThan(FLAT_RSS_KIB);
    },
    scaled(60_000),
  );

  it(
    'a config file that is a FIFO: exit 2 naming it, before conf (or anything) reads it',
    async () => {
      const home = path.join(dir, 'fifo-config');
      fs.mkdirSync(path.join(home, 'config'), { recursive: true });
      const config = path.join(home, 'config', 'config.json');
      mkfifo(config);
      const result = await run(['ads', 'campaigns', 'list', '--account', ACCOUNT], home);
      expect(refusedAtOnce(result)).toBe(`the config file ${config} is a FIFO (named pipe), not a regular file`);
      // A login writes the config: refused the same way, not written through or over.
      const login = await run(['auth', 'login', '--profile', 'x', '--with-token'], home);
      expect(refusedAtOnce(login)).toBe(`the config file ${config} is a FIFO (named pipe), not a regular file`);
      expect(fs.lstatSync(config).isFIFO()).toBe(true);
    },
    scaled(30_000),
  );
});
