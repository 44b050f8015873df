// `platform --version` and `--help` must load none of the heavy packages (CONTRIBUTING.md, Start-up).
//
// How this is checked, without timing anything: the CLI is built exactly as `npm run build`
// builds it (its script, with a temporary directory for dist/, so the result is never stale
// and never races with other tests using dist/) and started as a real process with a preload
// (test/helpers/record-loads.mjs) that records every module actually loaded: ESM imports
// through a loader hook, CommonJS requires by wrapping Module.prototype.require. The bundle
// merges packages into chunks with hashed names, so each loaded chunk is mapped back to the
// source files in it through esbuild's metafile (dist/meta.json). Runtime recording catches
// dynamic imports a static reading of the import graph could not; the metafile names what
// is inside each chunk. A positive control (`auth logout`, which writes the config through conf) shows the
// recorder and the mapping do see a heavy package when one loads.
//
// The OS keyring's binding runs in a child `node` (src/config/keyring.ts), which the preload does
// not see: those runs get a D-Bus address whose socket records each connection (a keyring child
// always connects), besides the check that src/config/keyring.ts never loaded in the CLI itself.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { startSandboxProcess } from '../helpers/sandbox-process.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
let dist: string;

const HEAVY = ['@inquirer/prompts', '@inquirer/core', 'ora', 'cli-table3', 'csv-parse', 'csv-stringify', 'undici', 'conf', 'ajv', 'zod', 'chalk', 'open'];

interface Meta {
  outputs: Record<string, { inputs: Record<string, unknown> }>;
}

/** The source files (and node_modules files) whose code the process loaded. */
function loadedInputs(args: string[], env: Record<string, string> = {}, status = 0): { inputs: string[]; requires: string[]; stdout: string; stderr: string } {
  const record = path.join(tempDir('platform-loads-'), 'loads.txt');
  fs.writeFileSync(record, '');
  const result = spawnSync(process.execPath, ['--import', path.join(root, 'test/helpers/record-loads.mjs'), path.join(dist, 'main.js'), ...args], {
    env: { ...process.env, RECORD_LOADS_FILE: record, PLATFORM_CONFIG_DIR: tempDir(), ...env },
    encoding: 'utf8',
  });
  expect(result.status, result.stderr).toBe(status);
  const meta = JSON.parse(fs.readFileSync(path.join(dist, 'meta.json'), 'utf8')) as Meta;
  const lines = fs.readFileSync(record, 'utf8').split('\n').filter(Boolean);
  const inputs: string[] = [];
  for (const line of lines) {
    if (line.startsWith('require:') || line.startsWith('node:')) continue;
    const file = new URL(line).pathname;
    if (file.startsWith(`${dist}/`)) {
      const output = meta.outputs[path.relative(root, file)];
      expect(output, `${file} is not in the metafile`).toBeDefined();
      inputs.push(...Object.keys(output!.inputs));
    } else {
      inputs.push(path.relative(root, file));
    }
  }
  const requires = lines.filter((l) => l.startsWith('require:')).map((l) => l.slice('require:'.length));
  return { inputs, requires, stdout: result.stdout, stderr: result.stderr };
}

function heavyIn(inputs: string[]): string[] {
  const found = new Set<string>();
  for (const input of inputs) {
    for (const pkg of HEAVY) if (input.includes(`node_modules/${pkg}/`)) found.add(pkg);
    if (input.startsWith('src/sandbox/')) found.add('the sandbox');
  }
  return [...found];
}

beforeAll(() => {
  // The metafile names outputs relative to the working directory, so build under the repository.
  fs.mkdirSync(path.join(root, '.tmp'), { recursive: true });
  dist = fs.mkdtempSync(path.join(root, '.tmp', 'startup-build-'));
  const script = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { build: string } }).scripts.build;
  const command = script.replace(/\bdist\b/g, path.relative(root, dist));
  expect(command, 'the build script no longer names dist/: update this test').not.toBe(script);
  const built = spawnSync('sh', ['-c', command], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, PATH: `${path.join(root, 'node_modules/.bin')}${path.delimiter}${process.env.PATH}` },
  });
  expect(built.status, built.stderr).toBe(0);
  expect(fs.existsSync(path.join(dist, 'meta.json')), 'the build script wrote no metafile (--metafile=dist/meta.json)').toBe(true);
}, scaled(60_000));

afterAll(() => fs.rmSync(dist, { recursive: true, force: true }));

describe('start-up loads', () => {
  it('--version loads neither commander nor any heavy package', () => {
    const { inputs, requires, stdout } = loadedInputs(['--version']);
    expect(stdout).toMatch(/^\d+\.\d+\.\d+/);
    expect(heavyIn(inputs)).toEqual([]);
    expect(inputs.filter((i) => i.includes('node_modules/'))).toEqual([]);
    expect(requires).toEqual([]);
  });

  it('--help loads commander and the command tree, and no heavy package or command code', () => {
    const { inputs, stdout } = loadedInputs(['--help']);
    expect(stdout).toContain('Usage: platform');
    expect(inputs).toContain('src/commands/tree.ts');
    expect(heavyIn(inputs)).toEqual([]);
    expect(inputs.filter((i) => i.includes('node_modules/') && !i.includes('node_modules/commander/'))).toEqual([]);
    // Each area's spec.ts is data (the tree is split per area), and so are the help topics and
    // the help's layout (commands/help/); no other command code loads.
    expect(inputs.filter((i) => /^src\/commands\/.+\//.test(i) && !/[/-]spec\.ts$/.test(i) && !i.startsWith('src/commands/help/'))).toEqual([]);
  });

  it('a nested --help loads no heavy package either', () => {
    expect(heavyIn(loadedInputs(['ads', 'campaigns', 'list', '--help']).inputs)).toEqual([]);
  });

  it('a list with its token stored loads undici and no other heavy package (no zod, no conf)', { timeout: scaled(30_000) }, async () => {
    // A sandbox process of its own: these runs are synchronous, and would block one in this process.
    const sandbox = await startSandboxProcess();
    try {
      const env = { PLATFORM_CONFIG_DIR: tempDir(), PLATFORM_BASE_URL: sandbox.url };
      const [account] = JSON.parse(loadedInputs(['ads', 'accounts', 'list', '--json'], env).stdout) as Array<{ ad_account_id: string }>;
      const { inputs, stdout } = loadedInputs(['ads', 'campaigns', 'list', '--account', account!.ad_account_id, '-o', 'json'], env);
      expect(JSON.parse(stdout)).not.toHaveLength(0);
      expect(heavyIn(inputs)).toEqual(['undici']);
    } finally {
      sandbox.stop();
    }
  });

  it('sees a heavy package when a command needs one (control)', () => {
    const { inputs } = loadedInputs(['auth', 'logout']);
    expect(heavyIn(inputs)).toContain('conf');
    expect(inputs).toContain('src/commands/auth/logout.ts');
  });

  it('a command that validates with zod loads it without its translations (only English)', () => {
    // `import { z } from 'zod'` is an object holding every export, `z.locales` too: 366 KB of
    // messages in 40-odd languages that every such command parsed; `import * as z` lets the
    // bundle keep only what is used.
    const rows = path.join(tempDir('platform-loads-csv-'), 'rows.csv');
    fs.writeFileSync(rows, 'campaign_id,status\nc1,bogus\n');
    const { inputs, stderr } = loadedInputs(['ads', 'campaigns', 'patch', '--account', 'a1', '--from-csv', rows], {}, 2);
    expect(stderr).toContain('line 2: status');
    expect(heavyIn(inputs)).toContain('zod');
    expect(inputs.filter((i) => i.includes('node_modules/zod/v4/locales/'))).toEqual(['node_modules/zod/v4/locales/en.js']);
  });
});

/**
 * A D-Bus address whose socket notes each connection in a file and hangs up (the keyring fails
 * at once). Served by a process of its own: the CLI runs here are synchronous and block this one.
 */
async function recordingBus(): Promise<{ address: string; connections(): number; close(): void }> {
  const dir = tempDir('platform-recording-bus-');
  const socket = path.join(dir, 'bus');
  const log = path.join(dir, 'connections.txt');
  fs.writeFileSync(log, '');
  const server = spawn(
    process.execPath,
    [
      '-e',
      `require('node:net').createServer((c) => { require('node:fs').appendFileSync(${JSON.stringify(log)}, 'connected\\n'); c.destroy(); }).listen(${JSON.stringify(socket)}, () => console.log('ready'))`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    server.stdout.once('data', () => resolve());
    server.once('exit', (code) => reject(new Error(`the recording bus exited ${code}`)));
  });
  return {
    address: `unix:path=${socket}`,
    connections: () => fs.readFileSync(log, 'utf8').split('\n').filter(Boolean).length,
    close: () => void server.kill(),
  };
}

describe('the OS keyring is never reached by start-up or by PLATFORM_TOKEN', { timeout: scaled(60_000) }, () => {
  const KEYRING_CODE = (inputs: string[]) => inputs.filter((i) => i === 'src/config/keyring.ts' || i.includes('node_modules/@napi-rs/'));

  it('--help, --version and an API command with PLATFORM_TOKEN on a keyring profile start no keyring child and load no binding; a command that reads the keyring does (control)', async () => {
    const bus = await recordingBus();
    const sandbox = await startSandboxProcess();
    try {
      const base = { DBUS_SESSION_BUS_ADDRESS: bus.address, PLATFORM_BASE_URL: sandbox.url };
      for (const args of [['--version'], ['--help'], ['auth', 'login', '--help']]) {
        const { inputs, requires } = loadedInputs(args, base);
        expect(KEYRING_CODE(inputs), args.join(' ')).toEqual([]);
        expect(requires.filter((r) => r.includes('keyring'))).toEqual([]);
      }
      expect(bus.connections(), '--help and --version reached the bus').toBe(0);

      // A token for PLATFORM_TOKEN, from a profile kept in the file (no keyring asked).
      const fileDir = tempDir();
      const token = loadedInputs(['auth', 'token'], { ...base, PLATFORM_CONFIG_DIR: fileDir, PLATFORM_SECURE_STORAGE: 'file' }).stdout.trim();
      expect(token).toMatch(/\S{16,}/);
      expect(bus.connections()).toBe(0);

      // A profile whose secrets are in the keyring, as `auth login` leaves one.
      const keyringDir = tempDir();
      const keyringProfile = {
        base_url: sandbox.url,
        client_id: 'sandbox-demo-client',
        secrets: 'keyring',
        keyring_secrets: ['client_secret', 'access_token'],
        grant: 'client_credentials',
        token: { token_type: 'Bearer', expires_at: Date.now() + 3_600_000, scope: 'ads.ad-accounts.read', grant: 'client_credentials' },
      };
      fs.writeFileSync(path.join(keyringDir, 'config.json'), JSON.stringify({ default_profile: 'kr', profiles: { kr: keyringProfile } }), { mode: 0o600 });
      const withToken = loadedInputs(['ads', 'accounts', 'list', '--json'], { ...base, PLATFORM_CONFIG_DIR: keyringDir, PLATFORM_TOKEN: token });
      expect(JSON.parse(withToken.stdout)).not.toHaveLength(0);
      expect(KEYRING_CODE(withToken.inputs)).toEqual([]);
      expect(bus.connections(), 'PLATFORM_TOKEN reached the keyring').toBe(0);

      // Control: without PLATFORM_TOKEN the same command must read the keyring: the child connects, and fails (exit 4).
      const control = loadedInputs(['ads', 'accounts', 'list', '--json'], { ...base, PLATFORM_CONFIG_DIR: keyringDir }, 4);
      expect(control.stderr).toMatch(/the secrets of profile kr are in the OS keyring, which did not answer/);
      expect(KEYRING_CODE(control.inputs)).toEqual(['src/config/keyring.ts']);
      expect(bus.connections()).toBeGreaterThan(0);
    } finally {
      sandbox.stop();
      bus.close();
    }
  });
});
