// A run killed (SIGKILL) with batches in flight, as its history sees it: `runs list` says it
// was interrupted, `runs show` lists the rows sent with no answer (the server may have
// applied them) and names the commands that finish or undo it, and `runs undo` restores
// every row the server applied, answered or not; pruning by count keeps it (its journal resumes it). A create in flight cannot be undone (what it
// made is unknown until a resume asks again under its key): undo says so, and after the
// resume it pauses every campaign the run created. An undone run is not resumed (its rows not
// yet sent would be applied over the undo).
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const ROWS = 400;
/** Each answer waits this long: the kill comes while the first batches are in flight, and the sandbox applies them after. */
const LATENCY_MS = 600;

let dir: string;
let sandbox: Sandbox;

// In this process, so that its count of writes is read at once (its HTTP answers wait LATENCY_MS); the CLI runs as processes.
beforeAll(async () => {
  dir = tempDir('platform-runs-kill-');
  sandbox = await sandboxOnFreePort({ campaigns: ROWS, latencyMs: LATENCY_MS });
}, scaled(60_000));
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => cliEnv(dir, sandbox.url);
const run = (args: string[], killWhen?: () => boolean) => runCli(args, env(), killWhen);
const journals = () => path.join(dir, 'state', 'platform', 'runs');

interface Campaign {
  campaign_id: string;
  name: string;
  configured_status: string;
}

async function campaigns(): Promise<Campaign[]> {
  const listed = await run(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'ndjson']);
  expect(listed.code, listed.stderr).toBe(0);
  return listed.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Campaign);
}

/** Writes the sandbox has applied, by id (a patched or created resource). */
const writes = () => Object.fromEntries(sandbox.stats.writesById);

/** The rows of a journal's sent records, and the rows with an answer (done records name them by key or place). */
function journalRows(file: string): { sent: string[]; answered: number } {
  const records = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { type: string; rows?: string[]; results?: unknown[]; ok?: number[] });
  const sent = records.filter((r) => r.type === 'sent').flatMap((r) => r.rows!);
  const answered = records.filter((r) => r.type === 'done').reduce((n, r) => n + r.results!.length + (r.ok?.length ?? 0), 0);
  return { sent, answered };
}

/** The journals in the runs directory (where a run keeps its history unless --journal names one). */
const kept = () =>
  (fs.existsSync(journals()) ? fs.readdirSync(journals()).filter((name) => name.endsWith('.ndjson')) : []).map((name) => path.join(journals(), name));

const totalWrites = () => [...sandbox.stats.writesById.values()].reduce((sum, n) => sum + n, 0);

/**
 * Runs a bulk write (journaled in the runs directory) and kills it with SIGKILL as soon as the
 * sandbox has applied its first batch, whose answer is then still LATENCY_MS away; returns its journal.
 */
async function killedInFlight(args: string[]): Promise<string> {
  const earlier = new Set(kept());
  const writesBefore = totalWrites();
  const { stats } = sandbox;
  const callsBefore = stats.apiRequests;
  const seqBefore = stats.requests.at(-1)?.seq ?? 0;
  const ended = await run(args, () => totalWrites() > writesBefore);
  expect(ended.signal, ended.stderr).toBe('SIGKILL');
  // The batches still in flight are applied at once and answered after LATENCY_MS, to no one:
  // the sandbox logs an API call when it answers, so every call it took in is logged once done.
  const taken = () => stats.apiRequests - callsBefore;
  const answered = () => stats.requests.filter((entry) => entry.seq > seqBefore && entry.route !== undefined).length;
  await waitFor(() => answered() === taken(), {
    what: "the sandbox to answer the killed run's batches in flight",
    state: () => ({ taken: taken(), answered: answered() }),
  });
  return kept().find((file) => !earlier.has(file))!;
}

describe('a run killed with batches in flight', { timeout: scaled(120_000) }, () => {
  it('is listed as interrupted; show lists its unanswered rows and the commands on; undo restores every row the server applied', async () => {
    const before = await campaigns();
    const csv = path.join(dir, 'patch.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${before.map((c, i) => `${c.campaign_id},Killed ${i}`).join('\n')}\n`);
    const writesBefore = writes();
    const patch = ['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', '20', '-o', 'ndjson'];
    const journal = await killedInFlight(patch);

    const { sent, answered } = journalRows(journal);
    expect(answered).toBe(0);
    const applied = (await campaigns()).filter((c) => c.name.startsWith('Killed ')).map((c) => c.campaign_id);
    // The server applied what was in flight, though no answer reached the journal.
    expect(applied.length).toBeGreaterThan(0);
    expect(sent).toEqual(expect.arrayContaining(applied));

    const listed = await run(['ads', 'runs', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const [summary] = JSON.parse(listed.stdout) as Array<{ run: string; status: string; ended: string; rows: number }>;
    expect(summary).toMatchObject({ status: 'interrupted', ended: '', rows: ROWS });
    expect(listed.stderr).toContain(`platform ads runs show ${summary!.run}`);
    // At 80 columns the table says so too.
    const table = await runCli(['ads', 'runs', 'list', '-o', 'table'], { ...env(), COLUMNS: '80' });
    expect(table.stdout.split('\n')[1]).toMatch(new RegExp(`^${summary!.run.slice(-8)} .* ${ROWS}  interrupted `));

    const shown = await run(['ads', 'runs', 'show', summary!.run, '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    const rows = JSON.parse(shown.stdout) as Array<{ id: string; result: string; changes: string }>;
    expect(rows.map((r) => r.id).sort()).toEqual([...sent].sort());
    expect(rows.every((r) => r.result === 'unanswered' && r.changes.includes(' -> Killed '))).toBe(true);
    expect(shown.stderr).toContain(`${ROWS - sent.length} of its ${ROWS} rows were not sent, and ${sent.length} were sent with no answer`);
    expect(shown.stderr).toContain(`--resume ${journal}\``);
    expect(shown.stderr).toContain(`platform ads runs undo ${summary!.run}`);

    // The killed run left its lock (its holder gone): the undo takes it over.
    const lockText = () => (fs.existsSync(`${journal}.lock`) ? fs.readFileSync(`${journal}.lock`, 'utf8') : undefined);
    const leftByKilled = lockText();
    const undoing = run(['ads', 'runs', 'undo', summary!.run, '-o', 'ndjson']);
    // While the undo goes it holds the run's lock: a resume started meanwhile is refused, nothing sent.
    await waitFor(() => lockText() !== undefined && lockText() !== leftByKilled, { what: "the undo to take the run's lock", state: lockText });
    const during = await run([...patch, '--resume', journal]);
    expect(during.code, during.stderr).toBe(2);
    // (refused for the lock; or, on a machine so loaded that the undo ended before this resume began, as undone)
    expect(during.stderr).toMatch(
      /^--resume: .* (is in use by another run \(pid \d+, started .*\); wait for it to end, or stop it first|was undone by run \w{8}, so it is not resumed .*)\n$/,
    );
    const undo = await undoing;
    expect(undo.code, undo.stderr).toBe(0);
    const results = undo.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; result: string });
    expect(
      results
        .filter((r) => r.result === 'ok')
        .map((r) => r.id)
        .sort(),
    ).toEqual([...applied].sort());
    // Rows sent but not applied already have their old name: unchanged, not written.
    expect(results.filter((r) => r.result === 'unchanged')).toHaveLength(sent.length - applied.length);
    const after = new Map((await campaigns()).map((c) => [c.campaign_id, c.name]));
    expect(before.filter((c) => after.get(c.campaign_id) !== c.name)).toEqual([]);
    const writesAfter = writes();
    const writtenTwice = applied.filter((id) => (writesAfter[id] ?? 0) - (writesBefore[id] ?? 0) !== 2);
    expect(writtenTwice).toEqual([]);

    // Undone, the run is not resumed: its in-flight batch would replay as ok, and its unsent rows would be applied over the undo.
    const writesBeforeResume = totalWrites();
    const resumed = await run([...patch, '--resume', journal]);
    expect(resumed.code, resumed.stderr).toBe(2);
    expect(resumed.stderr).toMatch(/^--resume: run \w{8} was undone by run \w{8}, so it is not resumed .*run the command without --resume\n$/);
    expect(totalWrites()).toBe(writesBeforeResume);
    const shownAfter = await run(['ads', 'runs', 'show', summary!.run, '--json']);
    expect(shownAfter.stderr).toMatch(/^Run \w{8} was interrupted, and run \w{8} undid it\n$/);

    // The undo ended well; the run it undid is still the interrupted one (resumable), no longer pointed at.
    const again = await run(['ads', 'runs', 'list', '--json']);
    const statuses = (JSON.parse(again.stdout) as Array<{ undoes: string; status: string }>).map((r) => [r.undoes ? 'undo' : 'patch', r.status]);
    // (newest first; this test's runs come first: the create test's follow)
    expect(statuses).toEqual([
      ['undo', 'done'],
      ['patch', 'interrupted'],
    ]);
    expect(again.stderr).toBe('');

    // Pruned by count, the interrupted run stays (its journal is what resumes it); the finished undo goes.
    const pruned = await run(['ads', 'runs', 'prune', '--keep', '0']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(pruned.stderr).toContain('Removed 1 run\n');
    expect(pruned.stderr).toContain(`Kept 1 interrupted run (${summary!.run.slice(-8)}) beyond --keep`);
    const left = JSON.parse((await run(['ads', 'runs', 'list', '--json'])).stdout) as Array<{ run: string; status: string }>;
    expect(left).toMatchObject([{ run: summary!.run, status: 'interrupted' }]);
  });

  it('a create in flight is not undone (what it made is unknown) until a resume has asked; then undo pauses each campaign it created', async () => {
    const marker = `C${Date.now().toString(36)}`;
    const csv = path.join(dir, 'create.csv');
    fs.writeFileSync(csv, `name,status\n${Array.from({ length: 60 }, (_, i) => `${marker}-${i},active`).join('\n')}\n`);
    const create = ['ads', 'campaigns', 'create', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', '20', '-o', 'ndjson'];
    const journal = await killedInFlight(create);
    const { sent } = journalRows(journal);

    // All or nothing: what the run answered is not paused either, since after an undo the run is not resumed.
    const writesBefore = totalWrites();
    const early = await run(['ads', 'runs', 'undo', journal, '-o', 'ndjson']);
    expect(early.code, early.stderr).toBe(2);
    expect(early.stdout).toBe('');
    expect(early.stderr).toContain(`was stopped with ${sent.length} creates sent and never answered`);
    expect(early.stderr).toContain(`first run \`platform ${create.join(' ')} --resume ${journal}\`, then undo it; nothing was sent`);
    expect(totalWrites()).toBe(writesBefore);
    const shown = await run(['ads', 'runs', 'show', journal, '-o', 'ndjson']);
    expect(shown.stderr).toContain('to undo it, finish it first, then run `platform ads runs undo');

    const resumed = await run([...create, '--resume', journal]);
    expect(resumed.code, resumed.stderr).toBe(0);
    const undo = await run(['ads', 'runs', 'undo', journal, '-o', 'ndjson']);
    expect(undo.code, undo.stderr).toBe(0);
    const made = (await campaigns()).filter((c) => c.name.startsWith(`${marker}-`));
    expect(made).toHaveLength(60);
    expect(made.filter((c) => c.configured_status !== 'CAMPAIGN_CONFIGURED_STATUS_PAUSED')).toEqual([]);
  });
});
