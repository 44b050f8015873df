// The built CLI on a slow disk: every batch request leaves only once the journal's sent
// record for its Idempotency-Key is durable (a completed fsync covers it), with batches in
// parallel sharing fsyncs. test/helpers/journal-durability.mjs, preloaded into the CLI,
// delays the journal's fsyncs and notes, as undici creates each request, whether its record
// was on disk. A runner that sends without waiting for the record passed tsc, ESLint and the
// kill test (a killed run usually loses nothing the page cache had).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/platform.js');
const witness = path.join(root, 'test/helpers/journal-durability.mjs');
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';

let dir: string;
let sandbox: SandboxProcess;

beforeAll(async () => {
  dir = tempDir('platform-durable-');
  fs.mkdirSync(path.join(dir, 'tmp'));
  sandbox = await startSandboxProcess(['--campaigns', '60']);
}, scaled(30_000));
afterAll(() => {
  sandbox.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

function cli(args: string[], env: Record<string, string> = {}, preload?: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...(preload ? ['--import', preload] : []), bin, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: dir,
      TMPDIR: path.join(dir, 'tmp'),
      PLATFORM_CONFIG_DIR: path.join(dir, 'config'),
      PLATFORM_BASE_URL: sandbox.url,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

describe('the journal on a slow disk', () => {
  it('sends each batch only once its sent record is on disk, under the key the record names', async () => {
    const listed = await cli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'json']);
    const ids = (JSON.parse(listed.stdout) as Array<{ campaign_id: string }>).slice(0, 40).map((c) => c.campaign_id);
    const csv = path.join(dir, 'rename.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},Durable ${i}`).join('\n')}\n`);
    const journals = path.join(dir, 'journals');
    const journal = path.join(journals, 'rename.journal');
    const log = path.join(dir, 'requests.log');
    const args = [
      'ads',
      'campaigns',
      'patch',
      '--account',
      ACCOUNT,
      '--from-csv',
      csv,
      '--batch-size',
      '5',
      '--concurrency',
      '3',
      '--journal',
      journal,
      '-o',
      'ndjson',
    ];

    const run = await cli(args, { JOURNAL_DURABILITY_DIR: journals, JOURNAL_DURABILITY_LOG: log }, witness);

    expect(run.code, run.stderr).toBe(0);
    expect(
      run.stdout
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { result: string }).result),
    ).toEqual(ids.map(() => 'ok'));
    const requests = fs.readFileSync(log, 'utf8').trim().split('\n');
    // Eight batches of five, each sent once, each with its record on disk as it left.
    expect(requests).toHaveLength(8);
    expect(requests.filter((line) => !line.startsWith('durable '))).toEqual([]);
    const sentKeys = fs
      .readFileSync(journal, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; key?: string })
      .filter((record) => record.type === 'sent')
      .map((record) => record.key);
    expect(requests.map((line) => line.slice('durable '.length)).sort()).toEqual([...sentKeys].sort());
  });
});
