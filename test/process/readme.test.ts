// Runs the README's commands as a user would, as processes of the built CLI.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/platform.js');

function readmeCommand(heading: string): string {
  const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
  const section = readme.slice(readme.indexOf(heading));
  const command = /```sh\n(.+)\n```/.exec(section)?.[1];
  if (!command) throw new Error(`no command under ${heading}`);
  return command;
}

/** A port nothing listens on now (the kernel picks it; we close it at once). */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The environment of a new user: no PLATFORM_* or proxy settings from whoever runs the tests. */
function cleanEnv(extra: Record<string, string>): Record<string, string> {
  const home = tempDir();
  return { PATH: process.env.PATH ?? '', HOME: home, PLATFORM_CONFIG_DIR: path.join(home, '.config/platform'), ...extra };
}

describe('README set-up commands', () => {
  it('the main-job command prints a campaigns table from the sandbox', { timeout: scaled(90_000) }, async () => {
    // The commands run as written; PLATFORM_SANDBOX_PORT moves the sandbox (and the local
    // profile with it) off 4010, so the test never collides with a sandbox already running.
    const port = String(await freePort());
    const command = readmeCommand('**Main job against the built-in sandbox**');
    expect(command.startsWith('npm ci && npm run build && ')).toBe(true);
    // npm ci and the build have already run in this checkout (pretest); run the rest exactly as written.
    const result = spawnSync('bash', ['-c', command.slice('npm ci && npm run build && '.length)], {
      cwd: root,
      env: cleanEnv({ PLATFORM_SANDBOX_PORT: port }),
      encoding: 'utf8',
      // Generous bounds, not timings: on a busy machine the sandbox may start after the
      // command's `sleep 2`, and the list then retries with back-off (12 s in one CI run).
      timeout: scaled(60_000),
    });
    expect(result.stderr).toBe('');
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+STATUS\s+BUDGET\s+UNIT/);
    expect(lines.length).toBeGreaterThan(10);
    expect(lines[1]).toMatch(/^[0-9a-f-]{36}\s+Campaign/);
    // `kill $!` stopped the sandbox: its port is free again.
    const again = spawnSync(process.execPath, [bin, 'ads', 'accounts', 'list'], { env: cleanEnv({ PLATFORM_SANDBOX_PORT: port }), encoding: 'utf8' });
    expect(again.stderr).toMatch(/ECONNREFUSED/);
  });

  it('the test command is what .ci/run runs', () => {
    expect(readmeCommand('**Tests**')).toBe('npm ci && npm test');
    const ci = fs.readFileSync(path.join(root, '.ci/run'), 'utf8');
    expect(ci).toMatch(/^npm ci$/m);
    expect(ci).toMatch(/^npm test$/m);
  });
});

describe('the built CLI as a process', () => {
  it('sandbox serve on port 0 prints its URL and credentials, serves, and stops cleanly on Ctrl-C', async () => {
    const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'], env: cleanEnv({}) });
    let stdout = '';
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /(http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match && /client secret: \S+/.test(stdout)) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`exited ${code}`)));
    });
    expect(stdout).toMatch(/client id: sandbox-demo-client/);
    const list = spawnSync(process.execPath, [bin, 'ads', 'accounts', 'list', '-o', 'csv'], {
      env: cleanEnv({ PLATFORM_BASE_URL: url }),
      encoding: 'utf8',
    });
    expect(list.status).toBe(0);
    expect(list.stdout.split('\n')[0]).toBe('ad_account_id,name,country_code,currency_code,account_type,billing_type');
    const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('--version prints the package version', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    const result = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8', env: cleanEnv({}) });
    expect(result.stdout.trim()).toBe(pkg.version);
  });
});
