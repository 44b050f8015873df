// A resumed bulk run, as processes against a sandbox process: rows are matched to the journal
// (or the earlier results) by what they are, not by their line; one run at a time per
// journal; a full disk under the journal stops the run cleanly; a finished resume tidies up.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { journaledRows } from '../helpers/journal-records.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/platform.js');
const fullDisk = path.join(root, 'test/helpers/full-disk.mjs');
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

let dir: string;
let sandbox: SandboxProcess;

beforeAll(async () => {
  dir = tempDir('platform-resume-');
  fs.mkdirSync(path.join(dir, 'tmp'));
  // Slow enough that a run is still sending when the test stops it or starts a second one.
  sandbox = await startSandboxProcess(['--campaigns', '300', '--latency', '15']);
}, scaled(30_000));
afterAll(() => {
  sandbox.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

interface Ended {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Running {
  pid: number;
  stop(signal: NodeJS.Signals): void;
  /** Resolves once stderr has said this (e.g. the journal line: the run holds its journal). */
  said(text: string): Promise<void>;
  ended: Promise<Ended>;
  /** Writes the rows to a held stdin and closes it. */
  feed(text: string): void;
  /** What it has written to stderr so far. */
  stderr(): string;
}

/** `stdin: { held: true }`: stdin stays open until `feed` (the run holds its journal's lock meanwhile, waiting for its rows). */
function cli(args: string[], options: { stdin?: string | { held: true }; env?: Record<string, string>; preload?: string } = {}): Running {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: dir,
    TMPDIR: path.join(dir, 'tmp'),
    PLATFORM_CONFIG_DIR: path.join(dir, 'config'),
    PLATFORM_BASE_URL: sandbox.url,
    ...options.env,
  };
  const child = spawn(process.execPath, [...(options.preload ? ['--import', options.preload] : []), bin, ...args], {
    env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  const waiting: Array<{ text: string; resolve: () => void }> = [];
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    for (const w of waiting.filter((w) => stderr.includes(w.text))) w.resolve();
  });
  if (typeof options.stdin !== 'object') child.stdin.end(options.stdin ?? '');
  const ended = new Promise<Ended>((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
  return {
    pid: child.pid!,
    stop: (signal) => child.kill(signal),
    said: (text) =>
      stderr.includes(text)
        ? Promise.resolve()
        : Promise.race([
            new Promise<void>((resolve) => waiting.push({ text, resolve })),
            ended.then((e) => Promise.reject(new Error(`ended (${e.code}) before saying "${text}": ${e.stderr}`))),
          ]),
    ended,
    feed: (text) => child.stdin.end(text),
    stderr: () => stderr,
  };
}

/** Resolves once a run holds the journal's lock (the file beside it). */
async function lockTaken(journal: string): Promise<void> {
  await waitFor(() => fs.existsSync(`${journal}.lock`), { what: `a run to take the lock of ${journal}`, intervalMs: 5 });
}

/** Rows journaled as sent so far. */
function sentRows(journal: string): number {
  try {
    return fs
      .readFileSync(journal, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{"type":"sent"'))
      .reduce((n, l) => n + (JSON.parse(l) as { lines: number[] }).lines.length, 0);
  } catch {
    return 0;
  }
}

/** Runs until the journal holds `rows` results, then sends SIGTERM: the run winds down and exits 130. */
async function interruptAfter(args: string[], journal: string, rows: number): Promise<Ended> {
  const run = cli(args);
  const poll = setInterval(() => {
    if (journaledRows(journal) < rows) return;
    clearInterval(poll);
    run.stop('SIGTERM');
  }, 5);
  const ended = await run.ended;
  clearInterval(poll);
  expect(ended.code, ended.stderr).toBe(130);
  return ended;
}

async function writes(): Promise<Record<string, number>> {
  return ((await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as { writes: Record<string, number> }).writes;
}

/** Writes per id since `before`. */
async function writesSince(before: Record<string, number>, ids: string[]): Promise<Map<string, number>> {
  const after = await writes();
  return new Map(ids.map((id) => [id, (after[id] ?? 0) - (before[id] ?? 0)]));
}

let listed: Array<{ campaign_id: string; name: string }> | undefined;
async function campaignIds(count: number, from = 0): Promise<string[]> {
  if (!listed) {
    const run = await cli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'json']).ended;
    listed = JSON.parse(run.stdout) as Array<{ campaign_id: string; name: string }>;
  }
  return listed.slice(from, from + count).map((c) => c.campaign_id);
}

function parseResults(stdout: string): Array<{ line: number; id: string; result: string; error_code: string; error_message: string }> {
  return stdout
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { line: number; id: string; result: string; error_code: string; error_message: string });
}

const patchArgs = (csv: string, extra: string[], batchSize = 10, concurrency = 1) => [
  ...['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv],
  ...['--batch-size', String(batchSize), '--concurrency', String(concurrency), '-o', 'ndjson', ...extra],
];

function csvFile(name: string, rows: string[][]): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `${rows.map((r) => r.join(',')).join('\n')}\n`);
  return file;
}

describe('resume matches rows by what they are, not by line (finding 1)', { timeout: scaled(60_000) }, () => {
  it('a journal resumed with the input reversed, one applied row and one unsent row removed: every row written exactly once, each result naming its own id', async () => {
    const ids = await campaignIds(100, 0);
    const rows = ids.map((id, i) => [id, `Reversed ${i}`]);
    const journal = path.join(dir, 'reversed.journal');
    const before = await writes();
    const first = await interruptAfter(patchArgs(csvFile('reversed.csv', [['campaign_id', 'name'], ...rows]), ['--journal', journal]), journal, 30);
    const applied = new Set(
      parseResults(first.stdout)
        .filter((r) => r.result === 'ok')
        .map((r) => r.id),
    );
    const removedApplied = ids.find((id) => applied.has(id))!;
    const removedUnsent = [...ids].reverse().find((id) => !applied.has(id))!;
    const kept = rows.filter(([id]) => id !== removedApplied && id !== removedUnsent).reverse();
    const resumed = await cli(patchArgs(csvFile('reversed-resume.csv', [['campaign_id', 'name'], ...kept]), ['--resume', journal])).ended;
    expect(resumed.code, resumed.stderr).toBe(0);
    const results = parseResults(resumed.stdout);
    // Each result is for the row on its line, under that row's id.
    expect(results.map((r) => r.id)).toEqual(kept.map(([id]) => id));
    for (const r of results) expect(r.result === 'ok' || (r.error_code === 'AlreadyApplied' && applied.has(r.id)), JSON.stringify(r)).toBe(true);
    const counts = await writesSince(before, ids);
    const wrong = ids.filter((id) => counts.get(id) !== (id === removedUnsent ? 0 : 1));
    expect(wrong, `rows not written exactly once: ${wrong.map((id) => `${id}: ${counts.get(id)}`).join(', ')}`).toEqual([]);
  });

  it('resuming from the results CSV of the interrupted run, with the input reordered: every row written exactly once', async () => {
    const ids = await campaignIds(100, 100);
    const rows = ids.map((id, i) => [id, `From results ${i}`]);
    const journal = path.join(dir, 'results.journal');
    const before = await writes();
    const first = await interruptAfter(
      // (the last -o wins: results as CSV, as a user keeps them)
      patchArgs(csvFile('results.csv', [['campaign_id', 'name'], ...rows]), ['--journal', journal, '-o', 'csv']),
      journal,
      30,
    );
    const resultsCsv = path.join(dir, 'first-results.csv');
    fs.writeFileSync(resultsCsv, first.stdout);
    // Odd rows first, then even ones.
    const reordered = [...rows.filter((_, i) => i % 2), ...rows.filter((_, i) => i % 2 === 0)];
    const resumed = await cli(patchArgs(csvFile('results-resume.csv', [['campaign_id', 'name'], ...reordered]), ['--resume', resultsCsv])).ended;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(parseResults(resumed.stdout).map((r) => r.id)).toEqual(reordered.map(([id]) => id));
    const counts = await writesSince(before, ids);
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
  });

  it('a row the earlier run applied, edited before the resume, is refused (exit 2) naming its line and id; nothing is sent', async () => {
    const ids = await campaignIds(60, 200);
    const rows = ids.map((id, i) => [id, `Edited ${i}`]);
    const journal = path.join(dir, 'edited.journal');
    const first = await interruptAfter(patchArgs(csvFile('edited.csv', [['campaign_id', 'name'], ...rows]), ['--journal', journal]), journal, 20);
    const applied = parseResults(first.stdout).find((r) => r.result === 'ok')!;
    const edited = rows.map(([id, name]) => [id!, id === applied.id ? `${name} (changed)` : name!]);
    const before = await writes();
    const resumed = await cli(patchArgs(csvFile('edited-resume.csv', [['campaign_id', 'name'], ...edited]), ['--resume', journal])).ended;
    expect(resumed.code).toBe(2);
    const line = edited.findIndex(([id]) => id === applied.id) + 2;
    expect(resumed.stderr).toContain(`line ${line} (campaign_id ${applied.id}) differs from the row the earlier run applied`);
    expect(resumed.stdout).toBe('');
    expect([...(await writesSince(before, ids)).values()].every((n) => n === 0)).toBe(true);
  });

  it('a create resumed with its input reversed creates each campaign exactly once', async () => {
    const marker = `R${Date.now().toString(36)}`;
    const rows = Array.from({ length: 120 }, (_, i) => [`${marker}-${i}`, 'active', '10', 'USD', 'daily']);
    const header = ['name', 'status', 'budget', 'currency', 'budget_unit'];
    const journal = path.join(dir, 'create.journal');
    const args = (csv: string, extra: string[]) => [
      ...['ads', 'campaigns', 'create', '--account', ACCOUNT, '--from-csv', csv],
      ...['--batch-size', '10', '--concurrency', '1', '-o', 'ndjson', ...extra],
    ];
    const first = await interruptAfter(args(csvFile('create.csv', [header, ...rows]), ['--journal', journal]), journal, 40);
    const created = parseResults(first.stdout).filter((r) => r.result === 'ok');
    const resumed = await cli(args(csvFile('create-resume.csv', [header, ...[...rows].reverse()]), ['--resume', journal])).ended;
    expect(resumed.code, resumed.stderr).toBe(0);
    const results = parseResults(resumed.stdout);
    // The rows created earlier are reported under the ids they were created with.
    const earlier = new Set(created.map((r) => r.id));
    expect(results.filter((r) => r.error_code === 'AlreadyApplied').every((r) => earlier.has(r.id))).toBe(true);
    expect(results.filter((r) => r.error_code === 'AlreadyApplied')).toHaveLength(created.length);
    const list = await cli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'json']).ended;
    const names = (JSON.parse(list.stdout) as Array<{ name: string }>).map((c) => c.name).filter((n) => n.startsWith(`${marker}-`));
    expect(names.length).toBe(rows.length);
    expect(new Set(names).size).toBe(rows.length);
  });
});

describe('one run at a time per journal (finding 2)', { timeout: scaled(60_000) }, () => {
  it('a second --resume of a journal in use exits 2 at once naming the run that holds it; every row is written once', async () => {
    const ids = await campaignIds(150, 0);
    const csv = csvFile('twice.csv', [['campaign_id', 'name'], ...ids.map((id, i) => [id, `Twice ${i}`])]);
    const journal = path.join(dir, 'twice.journal');
    const before = await writes();
    await interruptAfter(patchArgs(csv, ['--journal', journal]), journal, 20);
    // The first resume reads its rows from stdin, held open until the second has tried.
    const one = cli(patchArgs('-', ['--resume', journal]), { stdin: { held: true } });
    await lockTaken(journal);
    const two = await cli(patchArgs(csv, ['--resume', journal])).ended;
    one.feed(fs.readFileSync(csv, 'utf8'));
    expect(two.code).toBe(2);
    expect(two.stderr.trim()).toMatch(new RegExp(`^--resume: ${journal} is in use by another run \\(pid ${one.pid}, started \\d{4}-[^)]+\\); `));
    expect(two.stdout).toBe('');
    const ended = await one.ended;
    expect(ended.code, ended.stderr).toBe(0);
    const counts = await writesSince(before, ids);
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
  });

  it('the same --journal given to four runs at once: three exit 2 naming the holder, no raw EEXIST', async () => {
    const ids = await campaignIds(100, 150);
    const csv = csvFile('four.csv', [['campaign_id', 'name'], ...ids.map((id, i) => [id, `Four ${i}`])]);
    const journal = path.join(dir, 'four.journal');
    const before = await writes();
    const holder = cli(patchArgs('-', ['--journal', journal]), { stdin: { held: true } });
    await lockTaken(journal);
    const others = await Promise.all([1, 2, 3].map(() => cli(patchArgs(csv, ['--journal', journal])).ended));
    holder.feed(fs.readFileSync(csv, 'utf8'));
    for (const other of others) {
      expect(other.code).toBe(2);
      expect(other.stderr).toContain(`--journal: ${journal} is in use by another run (pid ${holder.pid}, started `);
      expect(other.stderr).not.toContain('EEXIST');
    }
    expect((await holder.ended).code).toBe(0);
    const counts = await writesSince(before, ids);
    expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
    // Once it is done, the journal is there: a new run that names it is told to resume it.
    const again = await cli(patchArgs(csv, ['--journal', journal])).ended;
    expect(again.code).toBe(2);
    expect(again.stderr).toContain(`--journal: ${journal} already exists (resume its run with --resume ${journal}`);
  });
});

describe('a full disk under the journal (finding 6)', { timeout: scaled(60_000) }, () => {
  it('stops sending at once, gives every row a result (applied ones as applied), says so in one line and exits 1; a resume then finishes', async () => {
    const ids = await campaignIds(200, 0);
    const csv = csvFile('full.csv', [['campaign_id', 'name'], ...ids.map((id, i) => [id, `Full disk ${i}`])]);
    const full = path.join(dir, 'full');
    const journal = path.join(full, 'run.journal');
    const before = await writes();
    // Room for a few batches' records (about 3 kB each), then ENOSPC.
    const run = await cli(patchArgs(csv, ['--journal', journal]), { preload: fullDisk, env: { FULL_DISK_DIR: full, FULL_DISK_BYTES: '12000' } }).ended;
    expect(run.code).toBe(1);
    const lines = run.stderr.trim().split('\n');
    const last = lines[lines.length - 1]!;
    expect(last).toContain(`the journal ${journal} could not be written (ENOSPC: no space left on device`);
    expect(last).toContain(`free space on its disk, then run \`platform ads campaigns patch`);
    expect(last).toContain(`--resume ${journal}`);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    const results = parseResults(run.stdout);
    expect(results.map((r) => r.id)).toEqual(ids);
    const counts = await writesSince(before, ids);
    // Applied rows say so; the others were not sent, and say why.
    for (const r of results) {
      if (counts.get(r.id) === 1) expect(r.result, JSON.stringify(r)).toBe('ok');
      else {
        expect(counts.get(r.id)).toBe(0);
        expect(r).toMatchObject({ result: 'skipped', error_code: 'NotSent' });
        expect(r.error_message).toContain('the journal could not be written (ENOSPC');
      }
    }
    const sent = results.filter((r) => r.result === 'ok').length;
    expect(sent).toBeGreaterThan(0);
    expect(sent).toBeLessThan(ids.length);
    // Space again: the resume sends the rest, and nothing twice.
    const resumed = await cli(patchArgs(csv, ['--resume', journal])).ended;
    expect(resumed.code, resumed.stderr).toBe(0);
    const after = await writesSince(before, ids);
    expect(ids.filter((id) => after.get(id) !== 1)).toEqual([]);
  });
});

describe('a full spool folder ($TMPDIR)', { timeout: scaled(60_000) }, () => {
  it.each([
    ['at its first chunk', '0'],
    ['part way through', '20000'],
  ])('stops before anything is sent, %s, with one line naming the folder and what to do', async (_, bytes) => {
    const ids = await campaignIds(300, 0);
    const csv = csvFile(`spool-${bytes}.csv`, [['campaign_id', 'name'], ...ids.map((id, i) => [id, `Spool ${i} ${'x'.repeat(60)}`])]);
    const spoolDir = path.join(dir, `spool-full-${bytes}`);
    fs.mkdirSync(spoolDir);
    const before = await writes();
    const run = await cli(patchArgs(csv, []), { preload: fullDisk, env: { TMPDIR: spoolDir, FULL_DISK_DIR: spoolDir, FULL_DISK_BYTES: bytes } }).ended;
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `the bulk spool folder ${spoolDir} could not be written: no space left on the device (ENOSPC), so nothing was sent; ` +
        'free some space there, or point TMPDIR at another folder\n',
    );
    expect([...(await writesSince(before, ids)).values()].every((n) => n === 0)).toBe(true);
    // Its own spool is gone.
    expect(fs.readdirSync(spoolDir)).toEqual([]);
  });
});

describe('the end of a resumed run (finding 11)', { timeout: scaled(90_000) }, () => {
  it('a resumed journal in the runs directory is kept as the run history once every row has succeeded: runs list shows it, unlocked', async () => {
    const ids = await campaignIds(80, 220);
    const csv = csvFile('tidy.csv', [['campaign_id', 'name'], ...ids.map((id, i) => [id, `Tidy ${i}`])]);
    // No --journal: it goes to the runs directory, and the run says where.
    const run = cli(patchArgs(csv, []));
    await run.said('\n');
    const journal = /Journal: (.*)\n/.exec(run.stderr())![1]!;
    const poll = setInterval(() => journaledRows(journal) >= 20 && run.stop('SIGTERM'), 5);
    const ended = await run.ended;
    clearInterval(poll);
    expect(ended.code, ended.stderr).toBe(130);
    expect(journal.startsWith(path.join(dir, '.local', 'state', 'platform', 'runs'))).toBe(true);
    expect(fs.existsSync(journal)).toBe(true);
    const resumed = await cli(patchArgs(csv, ['--resume', journal])).ended;
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(fs.existsSync(journal)).toBe(true);
    expect(fs.existsSync(`${journal}.lock`)).toBe(false);
    const listed = await cli(['ads', 'runs', 'list', '--json']).ended;
    expect(JSON.parse(listed.stdout)).toContainEqual(expect.objectContaining({ run: path.basename(journal, '.ndjson'), rows: ids.length, running: false }));
  });

  it('a stop after the last batch was sent (nothing left to send) ends as the results say, without "to send the rest"', async () => {
    // Slow answers: the stop comes while the last batches are in flight, and they finish after it.
    const slow = await startSandboxProcess(['--campaigns', '300', '--latency', '400']);
    try {
      const list = await cli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'json'], { env: { PLATFORM_BASE_URL: slow.url } }).ended;
      const ids = (JSON.parse(list.stdout) as Array<{ campaign_id: string }>).map((c) => c.campaign_id);
      const csv = csvFile('late.csv', [['campaign_id', 'name'], ...ids.map((id, i) => [id, `Late stop ${i}`])]);
      const journal = path.join(dir, 'late.journal');
      // Two batches, both sent at once.
      const run = cli(patchArgs(csv, ['--journal', journal], 150, 2), { env: { PLATFORM_BASE_URL: slow.url } });
      const poll = setInterval(() => {
        if (sentRows(journal) < ids.length) return;
        clearInterval(poll);
        run.stop('SIGTERM');
      }, 2);
      const ended = await run.ended;
      clearInterval(poll);
      expect(parseResults(ended.stdout).filter((r) => r.result === 'ok')).toHaveLength(ids.length);
      expect(ended.stderr).not.toContain('to send the rest');
      expect(ended.code, ended.stderr).toBe(0);

      // The same late stop with a row that failed (an id the account does not have): exit 1, as
      // the results say, not 130 as for a run with rows left to send.
      const withFailure = csvFile('late-failed.csv', [
        ['campaign_id', 'name'],
        ...ids.map((id, i) => [i === 7 ? '00000000-0000-4000-8000-000000000000' : id, `Late stop again ${i}`]),
      ]);
      const journal2 = path.join(dir, 'late-failed.journal');
      const run2 = cli(patchArgs(withFailure, ['--journal', journal2], 150, 2), { env: { PLATFORM_BASE_URL: slow.url } });
      const poll2 = setInterval(() => {
        if (sentRows(journal2) < ids.length) return;
        clearInterval(poll2);
        run2.stop('SIGTERM');
      }, 2);
      const ended2 = await run2.ended;
      clearInterval(poll2);
      expect(parseResults(ended2.stdout).filter((r) => r.result === 'failed')).toHaveLength(1);
      expect(ended2.stderr).not.toContain('to send the rest');
      expect(ended2.code, ended2.stderr).toBe(1);
    } finally {
      slow.stop();
    }
  });
});
