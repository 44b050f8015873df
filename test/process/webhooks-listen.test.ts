// The webhooks commands as real processes of the built CLI: `webhooks verify` stays light
// (no zod, undici, conf, inquirer... loaded, checked with the same load recorder as
// test/process/startup-loads.test.ts, on a build of its own), and `webhooks listen` stops
// cleanly on SIGINT.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sign } from '../../src/webhooks/hmac.js';
import { tempDir } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

const root = path.resolve(import.meta.dirname, '../..');
const HEAVY = ['@inquirer/prompts', '@inquirer/core', 'ora', 'cli-table3', 'csv-parse', 'csv-stringify', 'undici', 'conf', 'ajv', 'zod', 'chalk', 'open'];
const body = fs.readFileSync(path.join(import.meta.dirname, '../fixtures/webhook-vectors/bodies/event-compact.json'));
const secret = 'sandbox-demo-secret';
let dist: string;

beforeAll(() => {
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  dist = fs.mkdtempSync(path.join(root, '.tmp', 'webhooks-build-'));
  const script = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build;
  const built = spawnSync('sh', ['-c', script.replace(/\bdist\b/g, path.relative(root, dist))], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` },
  });
  expect(built.status, built.stderr).toBe(0);
}, scaled(60_000));
afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

/** Heavy packages (and the sandbox) whose code a run of the CLI loaded. */
function heavyLoaded(args: string[], env: Record<string, string>): { heavy: string[]; status: number | null; stdout: string; stderr: string } {
  const record = path.join(tempDir('platform-loads-'), 'loads.txt');
  fs.writeFileSync(record, '');
  const result = spawnSync(process.execPath, ['--import', path.join(root, 'test/helpers/record-loads.mjs'), path.join(dist, 'main.js'), ...args], {
    env: { ...process.env, RECORD_LOADS_FILE: record, PLATFORM_CONFIG_DIR: tempDir(), ...env },
    encoding: 'utf8',
  });
  const meta = JSON.parse(fs.readFileSync(path.join(dist, 'meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
  const inputs: string[] = [];
  for (const line of fs.readFileSync(record, 'utf8').split('\n').filter(Boolean)) {
    if (line.startsWith('require:') || line.startsWith('node:')) continue;
    const file = new URL(line).pathname;
    inputs.push(...(file.startsWith(`${dist}/`) ? Object.keys(meta.outputs[path.relative(root, file)]?.inputs ?? {}) : [path.relative(root, file)]));
  }
  const heavy = new Set<string>();
  for (const input of inputs) {
    for (const pkg of HEAVY) if (input.includes(`node_modules/${pkg}/`)) heavy.add(pkg);
    if (input.startsWith('src/sandbox/')) heavy.add('the sandbox');
  }
  expect(inputs, 'the recorder saw the verify command load').toContain('src/commands/webhooks/verify.ts');
  return { heavy: [...heavy], status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('webhooks verify start-up', () => {
  it('loads no heavy package: valid, invalid with a diagnosis, and with the secret from the profile', () => {
    const dir = tempDir();
    const file = path.join(dir, 'body.json');
    fs.writeFileSync(file, body);
    const newline = path.join(dir, 'newline.json');
    fs.writeFileSync(newline, Buffer.concat([body, Buffer.from('\n')]));
    const sig = sign(body, secret);
    const valid = heavyLoaded(['webhooks', 'verify', file, '--signature', sig], { PLATFORM_WEBHOOK_SECRET: secret });
    expect(valid).toMatchObject({ status: 0, heavy: [] });
    const invalid = heavyLoaded(['webhooks', 'verify', newline, '--signature', sig], { PLATFORM_WEBHOOK_SECRET: 'other' });
    expect(invalid.status).toBe(1);
    expect(invalid.stderr).toMatch(/client secret of profile local, not PLATFORM_WEBHOOK_SECRET/);
    expect(invalid.heavy).toEqual([]);
    // The local profile's client secret is read from the config file without conf.
    expect(heavyLoaded(['webhooks', 'verify', file, '--signature', sig], {})).toMatchObject({ status: 0, heavy: [] });
  });
});

/** The URL `webhooks listen` prints on stderr once it listens. */
function listening(stderr: () => string): Promise<string> {
  return waitFor(() => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr())?.[1], { what: 'webhooks listen to print its URL', state: stderr });
}

describe('webhooks listen as a process', () => {
  it('listens on 127.0.0.1, reports a delivery, and exits 0 on SIGINT', async () => {
    const child = spawn(process.execPath, [path.join(dist, 'main.js'), 'webhooks', 'listen', '--port', '0'], {
      env: { ...process.env, PLATFORM_WEBHOOK_SECRET: secret, PLATFORM_CONFIG_DIR: tempDir() },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await listening(() => stderr);
    const res = await fetch(url, { method: 'POST', body, headers: { 'X-Platform-Signature': sign(body, secret), 'X-Environment': 'sandbox' } });
    expect(res.status).toBe(200);
    await waitFor(() => stdout.includes('\n'), { what: 'the delivery reported on stdout', state: () => ({ stdout, stderr }) });
    child.kill('SIGINT');
    expect(await exited).toBe(0);
    // Each line starts with the time it arrived (UTC).
    expect(stdout).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ {2}valid {2}requests\.status_changed {2}2a2f3da4-14ac-4056-bbf2-d0b9cdcb0777 {2}accepted {2}3a3f3da4-14ac-4056-bbf2-d0b9cdcb0777\n$/,
    );
    expect(stderr).toMatch(/Stopped: 1 deliveries, 1 valid/);
    expect(stderr).not.toContain(secret);
  });
});

describe('webhooks listen forwarding to a receiver that never answers', { timeout: scaled(120_000) }, () => {
  it('5,000 deliveries: bounded memory, 503 once the queue is full, Ctrl-C exits within 2 s saying how many were not forwarded', async () => {
    const hanging = http.createServer(() => {
      // Never answers.
    });
    await new Promise<void>((resolve) => hanging.listen(0, '127.0.0.1', resolve));
    const app = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
    const child = spawn(process.execPath, [path.join(dist, 'main.js'), 'webhooks', 'listen', '--port', '0', '--forward-to', app, '-o', 'json'], {
      env: { ...process.env, PLATFORM_WEBHOOK_SECRET: secret, PLATFORM_CONFIG_DIR: tempDir() },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await listening(() => stderr);
    const statuses: Record<number, number> = {};
    let peakRss = 0;
    const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${child.pid}/status`, 'utf8'))![1]) / 1024;
    let next = 0;
    const sender = async () => {
      while (next < 5000) {
        const i = next++;
        const event = {
          event_id: `e-${i}`,
          event_time: 1700000000 + i,
          event_type: 'requests.status_changed',
          meta: { user_id: 'u', resource_id: `ride-${i}`, resource_type: 'request', status: 'accepted' },
        };
        const payload = Buffer.from(JSON.stringify(event));
        const res = await fetch(url, {
          method: 'POST',
          body: payload,
          headers: { 'X-Platform-Signature': sign(payload, secret), 'X-Environment': 'sandbox' },
        });
        await res.arrayBuffer();
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (i % 250 === 0) peakRss = Math.max(peakRss, rss());
      }
    };
    await Promise.all(Array.from({ length: 16 }, sender));
    peakRss = Math.max(peakRss, rss());
    const stopped = Date.now();
    child.kill('SIGINT');
    const code = await exited;
    const tookMs = Date.now() - stopped;
    hanging.closeAllConnections();
    hanging.close();
    expect(code).toBe(0);
    expect(statuses[503]).toBeGreaterThan(4000);
    expect((statuses[200] ?? 0) + (statuses[503] ?? 0)).toBe(5000);
    expect(peakRss).toBeLessThan(100);
    // A generous bound (it takes about a second), scaled as a deadline: on a busy machine the
    // exit itself waits for a core. The measured figure is in the closing note.
    expect(tookMs).toBeLessThan(scaled(5000));
    expect(stderr).toMatch(/\d+ not forwarded/);
  });
});
