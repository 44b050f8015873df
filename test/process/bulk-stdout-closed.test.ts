// A bulk run whose results are piped into a reader that stops early (`| head -1`): stdout is
// closed under it. The run winds down as on Ctrl-C (its batches in flight answered and
// journaled, nothing more sent), exits 130 naming the command that finishes it, and that
// resume applies the rest: each row once. (A list just ends there, exit 0.)
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli, type Ended } from '../helpers/cli-process.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const ROWS = 400;
const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

let dir: string;
let sandbox: Sandbox;
beforeAll(async () => {
  dir = tempDir('platform-stdout-closed-');
  sandbox = await sandboxOnFreePort({ campaigns: ROWS, latencyMs: 150 });
}, scaled(60_000));
afterAll(async () => {
  await sandbox.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const env = () => cliEnv(dir, sandbox.url);

/** Runs the CLI with its stdout read until the first line, then closed (as `| head -1` does). */
function readFirstLine(args: string[]): Promise<Ended & { first: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) child.stdout.destroy();
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('close', (code, signal) => resolve({ code, signal, stdout: out, stderr, first: out.split('\n')[0]! }));
  });
}

describe('bulk results piped into a reader that stops early', () => {
  it('the run winds down, exits 130 naming the resume, which applies the rest once', { timeout: scaled(120_000) }, async () => {
    const listed = await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'ndjson'], env());
    const ids = listed.stdout
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { campaign_id: string }).campaign_id);
    const csv = path.join(dir, 'rename.csv');
    fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},Piped ${i}`).join('\n')}\n`);
    const args = ['ads', 'campaigns', 'patch', '--account', ACCOUNT, '--from-csv', csv, '--batch-size', '20', '-o', 'ndjson'];

    const stopped = await readFirstLine(args);
    expect(JSON.parse(stopped.first)).toMatchObject({ result: 'ok' });
    expect(stopped.code, stopped.stderr).toBe(130);
    const resume = /stdout was closed \(what read it stopped reading\): to send the rest, run `platform (.*)`\n$/.exec(stopped.stderr);
    expect(resume, stopped.stderr).not.toBeNull();
    const writesBefore = sandbox.stats.writesById.size;
    expect(writesBefore).toBeGreaterThan(0);
    expect(writesBefore).toBeLessThan(ROWS);

    const finished = await runCli(resume![1]!.split(' '), env());
    expect(finished.code, finished.stderr).toBe(0);
    const renamed = (await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '-o', 'ndjson'], env())).stdout
      .trim()
      .split('\n')
      .filter((line) => (JSON.parse(line) as { name: string }).name.startsWith('Piped '));
    expect(renamed).toHaveLength(ROWS);
    expect([...sandbox.stats.writesById.values()].filter((n) => n !== 1)).toEqual([]);
  });
});
