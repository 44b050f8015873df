// A command at full concurrency prints nothing of Node's own on stderr: 25 ids looked up
// 8 at a time, each request and each back-off sleep (500s from the sandbox) listening to
// the one signal Ctrl-C aborts, used to print "MaxListenersExceededWarning" as if it leaked.
// 500s, not 429s: a 429 among the first requests makes the quota governor pace the run at
// about one request a second (37 s for these 25), which says nothing more about listeners.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/platform.js');
const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
let sandbox: SandboxProcess;
let env: Record<string, string>;

beforeAll(async () => {
  sandbox = await startSandboxProcess(['--latency', '150', '--fail-rate', '0.3', '--chaos-seed', '1']);
  const dir = tempDir();
  env = { PATH: process.env.PATH ?? '', HOME: dir, PLATFORM_CONFIG_DIR: path.join(dir, 'config'), PLATFORM_BASE_URL: sandbox.url };
}, scaled(30_000));
afterAll(() => sandbox.stop());

const run = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });

it(
  'looks up every campaign by id under 429s with no warning on stderr',
  async () => {
    const listed = await run(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--all', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const ids = (JSON.parse(listed.stdout) as Array<{ campaign_id: string }>).map((c) => c.campaign_id);
    expect(ids.length).toBeGreaterThanOrEqual(20);
    const result = await run(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--id', ids.join(','), '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout)).toHaveLength(ids.length);
    expect(result.stderr).toBe('');
  },
  scaled(60_000),
);
