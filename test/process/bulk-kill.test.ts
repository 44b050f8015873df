// A bulk run killed at any moment (SIGKILL, SIGTERM, SIGHUP, a double Ctrl-C) and resumed
// from its journal until done applies every row exactly once, against a sandbox that drops,
// throttles and fails requests; the last run gives exactly one final result per row.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { doneRows } from '../helpers/journal-records.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/platform.js');
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
// Sized for README's suite on two cores: 60 and 48 batches, each stop still lands between
// batches in flight (a larger run: KILL_PATCH_ROWS=20000 KILL_CREATE_ROWS=4000).
const PATCH_ROWS = Number(process.env.KILL_PATCH_ROWS) || 600;
const CREATE_ROWS = Number(process.env.KILL_CREATE_ROWS) || 240;

let dir: string;
let url: string;
let sandbox: SandboxProcess;

beforeAll(
  async () => {
    dir = tempDir('platform-kill-');
    fs.mkdirSync(tmp());
    // 500s, random 429s (not a rate limit: the quota governor keeps its pace through them), dropped items and latency.
    sandbox = await startSandboxProcess([
      ...['--campaigns', String(PATCH_ROWS), '--fail-rate', '0.1', '--throttle-rate', '0.1'],
      ...['--item-fail-rate', '0.05', '--latency', '20'],
    ]);
    url = sandbox.url;
  },
  scaled(Math.max(30_000, PATCH_ROWS * 5)),
);
afterAll(() => {
  sandbox.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

// The runs' spools go here: a killed run leaves its own, and a later run removes it.
const tmp = () => path.join(dir, 'tmp');
const env = () => ({ PATH: process.env.PATH ?? '', HOME: dir, TMPDIR: tmp(), PLATFORM_CONFIG_DIR: path.join(dir, 'config'), PLATFORM_BASE_URL: url });
const spools = () => fs.readdirSync(tmp()).filter((name) => name.startsWith('platform-bulk-'));

type Stop = 'SIGKILL' | 'SIGTERM' | 'SIGHUP' | 'double SIGINT';

/**
 * When a stop comes: as soon as the run's first batch is journaled as sent (in flight, no
 * result of it yet), or once the journal holds final results for `done` of all the rows,
 * across the runs so far (batches in flight, results arriving).
 */
type Moment = 'first batch in flight' | { done: number };

interface Progress {
  /** Batches journaled as sent, and rows with a final result, over all runs so far. */
  read(): { sent: number; done: number };
}

/** Reads what was appended to the journal since the last call (a sent record has `"lines":`, each result `"line":`). */
function journalProgress(journal: string): Progress {
  let offset = 0;
  let pending = '';
  const totals = { sent: 0, done: 0 };
  return {
    read() {
      let fd: number;
      try {
        fd = fs.openSync(journal, 'r');
      } catch {
        return { ...totals }; // not written yet
      }
      try {
        const buffer = Buffer.alloc(1 << 20);
        for (let read; (read = fs.readSync(fd, buffer, 0, buffer.length, offset)) > 0; offset += read) {
          // Whole records only: the last one may still be being written.
          const text = pending + buffer.toString('latin1', 0, read);
          const end = text.lastIndexOf('\n') + 1;
          pending = text.slice(end);
          for (const record of text.slice(0, end).split('\n')) {
            if (record.startsWith('{"type":"sent"')) totals.sent++;
            else if (record.startsWith('{"type":"done"')) totals.done += doneRows(record);
          }
        }
      } finally {
        fs.closeSync(fd);
      }
      return { ...totals };
    },
  };
}

/** Runs the CLI; stops it at `moment` as `stop` says (or lets it finish when no stop is given). */
function run(
  args: string[],
  stop?: { signal: Stop; at: Moment; total: number; progress: Progress },
): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; stoppedAt?: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let stoppedAt: number | undefined;
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const send = () => {
      stoppedAt = stop!.progress.read().done;
      if (stop!.signal === 'double SIGINT') {
        child.kill('SIGINT');
        // Not a wait: the second Ctrl-C comes while the first is winding the run down, as a user's would.
        setTimeout(() => child.kill('SIGINT'), 30);
      } else child.kill(stop!.signal);
    };
    let poll: ReturnType<typeof setInterval> | undefined;
    if (stop) {
      const sentBefore = stop.progress.read().sent;
      const due =
        stop.at === 'first batch in flight'
          ? () => stop.progress.read().sent > sentBefore
          : () => stop.progress.read().done >= (stop.at as { done: number }).done * stop.total;
      poll = setInterval(() => {
        if (!due()) return;
        clearInterval(poll);
        send();
      }, 5);
    }
    child.once('close', (code, signal) => {
      clearInterval(poll);
      resolve({ code, signal, stdout, stderr, stoppedAt });
    });
  });
}

async function stats(): Promise<Record<string, number>> {
  return ((await (await fetch(`${url}/_sandbox/stats`)).json()) as { writes: Record<string, number> }).writes;
}

/** Stops the run at each moment in turn, resuming from the journal, then lets it finish. */
async function killAndResume(
  args: string[],
  journal: string,
  total: number,
  stops: Array<[Stop, Moment]>,
): Promise<{ stdout: string; stopped: Array<{ signal: Stop; code: number | null; doneRows: number }> }> {
  let resume: string[] = [];
  const stopped: Array<{ signal: Stop; code: number | null; doneRows: number }> = [];
  const progress = journalProgress(journal);
  for (const [signal, at] of stops) {
    const result = await run([...args, ...resume], { signal, at, total, progress });
    // A run may finish before its stop comes; otherwise it ended by the signal or with 130.
    if (result.code === 0) return { stdout: result.stdout, stopped };
    stopped.push({ signal, code: result.code, doneRows: result.stoppedAt ?? 0 });
    // One SIGTERM or SIGHUP lets the run wind down and name the command that resumes it. They
    // come once rows have results (STOPS), so the CLI's handlers are in place: always checked.
    if (signal === 'SIGTERM' || signal === 'SIGHUP') {
      expect(result.code, `${signal}: ${result.stderr}`).toBe(130);
      expect(result.stderr).toContain(`--resume ${journal}`);
    }
    if (fs.existsSync(journal)) resume = ['--resume', journal];
  }
  const endings: string[] = [];
  for (let attempt = 0; attempt < 5; attempt++) {
    const last = await run([...args, ...resume]);
    if (last.code === 0) return { stdout: last.stdout, stopped };
    endings.push(`exit ${last.code ?? last.signal}: ${last.stderr.trim().split('\n').slice(-3).join(' / ')}`);
    resume = ['--resume', journal];
  }
  throw new Error(`the run never finished; the last runs ended:\n${endings.join('\n')}`);
}

/**
 * The issue's stops, for a patch and a create alike: SIGKILL at three different moments (the
 * first batch in flight with no result yet, early, late), and once each SIGTERM, SIGHUP and a
 * double Ctrl-C, between them.
 */
const STOPS: Array<[Stop, Moment]> = [
  ['SIGKILL', 'first batch in flight'],
  ['SIGKILL', { done: 0.1 }],
  ['SIGTERM', { done: 0.25 }],
  ['SIGHUP', { done: 0.4 }],
  ['double SIGINT', { done: 0.55 }],
  ['SIGKILL', { done: 0.75 }],
];

/** Each stop of STOPS cut its run short, at a moment of its own. */
function expectEveryStop(stopped: Array<{ signal: Stop; code: number | null; doneRows: number }>, total: number): void {
  console.log(`stops (rows with a result when each came, exit code): ${stopped.map((s) => `${s.signal} at ${s.doneRows}/${total} (${s.code})`).join(', ')}`);
  expect(
    stopped.map((s) => s.signal),
    `stops that cut a run short (rows done when each came: ${stopped.map((s) => `${s.signal}@${s.doneRows}/${total}`).join(', ')})`,
  ).toEqual(STOPS.map(([signal]) => signal));
  // The progress-driven stops came at increasing progress, so each found the run at a new point.
  const rows = stopped.slice(1).map((s) => s.doneRows);
  expect(rows).toEqual([...rows].sort((a, b) => a - b));
  expect(rows[rows.length - 1]!).toBeLessThan(total);
}

/** A bulk run of small batches (many of them in flight when the kill comes), journaled to `journal`. */
const bulkArgs = (verb: 'patch' | 'create', csv: string, journal: string, batchSize: number) => [
  ...['ads', 'campaigns', verb, '--account', ACCOUNT, '--from-csv', csv, '--journal', journal],
  ...['--batch-size', String(batchSize), '--concurrency', '2', '-o', 'ndjson'],
];

describe('bulk runs survive any kill', () => {
  it(
    `a ${PATCH_ROWS}-row patch, killed with SIGKILL at three moments, SIGTERM, SIGHUP and a double Ctrl-C, then resumed: each row applied exactly once`,
    async () => {
      const rows = (await campaignIds()).slice(0, PATCH_ROWS);
      const csv = path.join(dir, 'patch.csv');
      fs.writeFileSync(csv, `campaign_id,name\n${rows.map((id, i) => `${id},Patched ${i}`).join('\n')}\n`);
      const before = await stats();
      const journal = path.join(dir, 'patch.journal');
      const args = bulkArgs('patch', csv, journal, 10);
      const { stdout, stopped } = await killAndResume(args, journal, rows.length, STOPS);
      expectEveryStop(stopped, rows.length);
      // The spools of the runs killed with SIGKILL (and a double Ctrl-C) were removed by the runs after them.
      expect(spools()).toEqual([]);
      const after = await stats();
      const twice = rows.filter((id) => (after[id] ?? 0) - (before[id] ?? 0) !== 1);
      expect(twice, `rows not applied exactly once: ${twice.length}`).toEqual([]);
      const results = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { line: number; result: string });
      expect(results).toHaveLength(rows.length);
      expect(new Set(results.map((r) => r.line)).size).toBe(rows.length);
      expect(results.every((r) => r.result === 'ok' || r.result === 'skipped')).toBe(true);
    },
    scaled(Math.max(240_000, PATCH_ROWS * 60)),
  );

  it(
    `a ${CREATE_ROWS}-row create, killed with SIGKILL at three moments, SIGTERM, SIGHUP and a double Ctrl-C, then resumed: each campaign created exactly once, one result per row`,
    async () => {
      const marker = `K${Date.now().toString(36)}`;
      const csv = path.join(dir, 'create.csv');
      fs.writeFileSync(
        csv,
        `name,status,budget,currency,budget_unit\n${Array.from({ length: CREATE_ROWS }, (_, i) => `${marker}-${i},active,10,USD,daily`).join('\n')}\n`,
      );
      const journal = path.join(dir, 'create.journal');
      const args = bulkArgs('create', csv, journal, 5);
      const { stdout, stopped } = await killAndResume(args, journal, CREATE_ROWS, STOPS);
      expectEveryStop(stopped, CREATE_ROWS);
      expect(spools()).toEqual([]);
      const names = (await allCampaigns()).map((c) => c.name).filter((n) => n.startsWith(`${marker}-`));
      const counts = new Map<string, number>();
      for (const name of names) counts.set(name, (counts.get(name) ?? 0) + 1);
      expect([...counts.values()].filter((n) => n !== 1)).toEqual([]);
      expect(counts.size).toBe(CREATE_ROWS);
      const results = stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { line: number; result: string });
      expect(results).toHaveLength(CREATE_ROWS);
      expect(new Set(results.map((r) => r.line)).size).toBe(CREATE_ROWS);
      expect(results.every((r) => r.result === 'ok' || r.result === 'skipped')).toBe(true);
    },
    scaled(Math.max(240_000, CREATE_ROWS * 200)),
  );

  it(
    'a SIGTERM after the run has stored a new token still winds down and names the --resume command',
    async () => {
      // A fresh configuration directory: the run signs in and writes the token, which loads the
      // config file's atomic writer; its exit hook sends the signal again, and that echo must
      // not count as a second interrupt.
      const ids = (await campaignIds()).slice(0, 400);
      const csv = path.join(dir, 'sigterm.csv');
      fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},Sigterm ${i}`).join('\n')}\n`);
      const journal = path.join(dir, 'sigterm.journal');
      const home = tempDir('platform-sigterm-');
      const child = spawn(
        process.execPath,
        [
          bin,
          'ads',
          'campaigns',
          'patch',
          '--account',
          ACCOUNT,
          '--from-csv',
          csv,
          '--journal',
          journal,
          '--batch-size',
          '5',
          '--concurrency',
          '1',
          '-o',
          'ndjson',
        ],
        { env: { ...env(), HOME: home, PLATFORM_CONFIG_DIR: path.join(home, 'config') }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stderr = '';
      child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
      // The first result line means the token is stored and batches are being sent.
      child.stdout.once('data', () => child.kill('SIGTERM'));
      child.stdout.resume();
      const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
      fs.rmSync(home, { recursive: true, force: true });
      expect(code).toBe(130);
      expect(stderr).toContain(`--resume ${journal}`);
      expect(stderr).toMatch(/400 rows: \d+ ok/);
    },
    scaled(60_000),
  );
});

describe("README's pipeline, killed and resumed with the list in another order", () => {
  it(
    'list -o csv | awk | sed | patch --from-csv -, killed with SIGKILL, resumed with the printed journal on a reversed list: every active campaign paused, each written exactly once',
    async () => {
      const active = new Set((await allCampaigns()).filter((c) => c.configured_status === 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE').map((c) => c.campaign_id));
      expect(active.size).toBeGreaterThan(100);
      const before = await stats();
      // The first run is killed once 40% of the active campaigns are journaled as done.
      const first = readmePipeline([], false);
      const journal = await first.journal;
      const progress = journalProgress(journal);
      const poll = setInterval(() => progress.read().done >= active.size * 0.4 && first.patch.kill('SIGKILL'), 5);
      const killed = await first.ended;
      clearInterval(poll);
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      // Resumed as the run said (--resume JOURNAL), the list now read in reverse; again until it ends well.
      const endings: string[] = [];
      for (let attempt = 0; attempt < 6; attempt++) {
        const resumed = readmePipeline(['--resume', journal], true);
        const ended = await resumed.ended;
        if (ended.code === 0) break;
        endings.push(`exit ${ended.code ?? ended.signal}: ${ended.stderr.trim().split('\n').slice(-2).join(' / ')}`);
      }
      expect(endings.length, endings.join('\n')).toBeLessThan(6);
      const after = await stats();
      const all = await allCampaigns();
      const wrong = all.filter((c) => (after[c.campaign_id] ?? 0) - (before[c.campaign_id] ?? 0) !== (active.has(c.campaign_id) ? 1 : 0));
      expect(wrong.map((c) => `${c.campaign_id}: ${(after[c.campaign_id] ?? 0) - (before[c.campaign_id] ?? 0)}`)).toEqual([]);
      expect(all.filter((c) => active.has(c.campaign_id) && c.configured_status !== 'CAMPAIGN_CONFIGURED_STATUS_PAUSED')).toEqual([]);
    },
    scaled(Math.max(120_000, PATCH_ROWS * 60)),
  );
});

/**
 * README's bulk pipeline, each stage a process: `platform ads campaigns list --all -o csv |
 * awk -F, 'NR == 1 || $3 == "active"' | sed 's/,active,/,paused,/' | platform ads campaigns
 * patch --from-csv - -o csv`, with `reversed` the list's rows in reverse order first. Resolves
 * `journal` with the journal the patch names on stderr.
 */
function readmePipeline(extra: string[], reversed: boolean) {
  const list = spawn(process.execPath, [bin, 'ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'csv'], {
    env: env(),
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const reverse = reversed
    ? spawn('awk', ['NR == 1 { print; next } { rows[n++] = $0 } END { while (n) print rows[--n] }'], { stdio: ['pipe', 'pipe', 'ignore'] })
    : undefined;
  const awk = spawn('awk', ['-F,', 'NR == 1 || $3 == "active"'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const sed = spawn('sed', ['s/,active,/,paused,/'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const patch = spawn(process.execPath, [bin, 'ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', '-', '-o', 'csv', ...extra], {
    env: env(),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (reverse) {
    list.stdout.pipe(reverse.stdin);
    reverse.stdout.pipe(awk.stdin);
  } else list.stdout.pipe(awk.stdin);
  awk.stdout.pipe(sed.stdin);
  sed.stdout.pipe(patch.stdin);
  // A killed patch closes its stdin: the stages before it see EPIPE, as in a shell.
  for (const stream of [reverse?.stdin, awk.stdin, sed.stdin, patch.stdin]) stream?.on('error', () => undefined);
  let stdout = '';
  let stderr = '';
  patch.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  const journal = new Promise<string>((resolve, reject) => {
    patch.stderr.on('data', (c: Buffer) => {
      stderr += c.toString();
      const named = /Journal: (.*)\n/.exec(stderr);
      if (named) resolve(named[1]!);
    });
    patch.once('close', () => reject(new Error(`the patch named no journal: ${stderr}`)));
  });
  journal.catch(() => undefined);
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>((resolve) =>
    patch.once('close', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { patch, journal, ended };
}

/** Every campaign of the account, read over raw HTTP. */
async function allCampaigns(): Promise<Array<{ campaign_id: string; name: string; configured_status: string }>> {
  const token = await demoToken();
  const campaigns: Array<{ campaign_id: string; name: string; configured_status: string }> = [];
  let pageToken: string | undefined;
  do {
    const page = (await (
      await steadyFetch(`${url}/v1/ads/${ACCOUNT}/campaigns?page_limit=2000${pageToken ? `&page_token=${pageToken}` : ''}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as {
      campaigns?: Array<{ campaign_id: string; name: string; configured_status: string }>;
      next_page_token?: { value: string };
    };
    campaigns.push(...(page.campaigns ?? []));
    pageToken = page.next_page_token?.value;
  } while (pageToken);
  return campaigns;
}

async function campaignIds(): Promise<string[]> {
  return (await allCampaigns()).map((c) => c.campaign_id);
}

/** The test's own reads retry what the faulty sandbox drops, throttles or fails. */
async function steadyFetch(input: string, init?: RequestInit): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    try {
      const response = await fetch(input, init);
      if (response.status < 429 || attempt > 50) return response;
      await response.arrayBuffer();
    } catch (error) {
      if (attempt > 50) throw error;
    }
    // A pause between retries of a refused read (bounded by the count), not a wait for an event.
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

async function demoToken(): Promise<string> {
  for (;;) {
    const response = await steadyFetch(`${url}/oauth/v2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-demo-client', client_secret: 'sandbox-demo-secret' }),
    });
    if (response.ok) return ((await response.json()) as { access_token: string }).access_token;
  }
}
