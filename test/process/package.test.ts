// The package as users get it: `npm pack`, installed into a temporary prefix, run from
// outside the repository. It holds only what runs, installs without scripts or warnings,
// and needs no other package than those its dependencies name.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
let work: string;
let tarball: string;
let platform: string;

beforeAll(() => {
  work = tempDir('platform-package-');
  // dist/ is built (pretest); --ignore-scripts keeps npm pack from rebuilding it under other tests' feet.
  const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--pack-destination', work, '--json'], { cwd: root, encoding: 'utf8' });
  expect(packed.status, packed.stderr).toBe(0);
  const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
  tarball = path.join(work, info!.filename);
  fs.writeFileSync(path.join(work, 'files.json'), JSON.stringify(info!.files.map((f) => f.path)));
  const prefix = path.join(work, 'prefix');
  const installed = spawnSync('npm', ['install', '-g', '--prefix', prefix, tarball, '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: work,
    encoding: 'utf8',
  });
  expect(installed.status, installed.stderr).toBe(0);
  fs.writeFileSync(path.join(work, 'install.log'), installed.stderr);
  platform = path.join(prefix, 'bin', 'platform');
}, scaled(120_000));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it('holds only what runs: the launcher, the bundle, completions, README, LICENSE and the third-party notices', () => {
    const files = JSON.parse(fs.readFileSync(path.join(work, 'files.json'), 'utf8')) as string[];
    expect(
      files.filter((f) => !/^(bin\/platform\.js|dist\/[\w-]+\.js|dist\/THIRD-PARTY-NOTICES\.md|completions\/.+|README\.md|LICENSE|package\.json)$/.test(f)),
    ).toEqual([]);
    expect(files).toContain('LICENSE');
    expect(files).toContain('dist/THIRD-PARTY-NOTICES.md');
    expect(files.some((f) => f.endsWith('.map') || f === 'dist/meta.json')).toBe(false);
  });

  it('names the licence of every third-party package the bundle holds', () => {
    const meta = JSON.parse(fs.readFileSync(path.join(root, 'dist/meta.json'), 'utf8')) as { inputs: Record<string, unknown> };
    const bundled = new Set(
      Object.keys(meta.inputs)
        .filter((input) => input.includes('node_modules/'))
        .map((input) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/[^]*$/.exec(input.slice(input.lastIndexOf('node_modules/')))![1]!),
    );
    expect(bundled.size).toBeGreaterThan(20);
    const notices = fs.readFileSync(path.join(root, 'dist/THIRD-PARTY-NOTICES.md'), 'utf8');
    const named = new Set([...notices.matchAll(/^## ((?:@[^/]+\/)?[^@\s]+)@/gm)].map((m) => m[1]!));
    expect([...bundled].filter((name) => !named.has(name))).toEqual([]);
    expect(notices).toMatch(/## commander@[\d.]+ \(MIT\)\n[^]*?Permission is hereby granted/);
  });

  it('installs without running a script and without a warning about itself', () => {
    const log = fs.readFileSync(path.join(work, 'install.log'), 'utf8');
    expect(log).not.toMatch(/platform-cli|install-scripts|prepare/);
  });

  it('runs --version, --help and a sandbox round trip from outside the repository', async () => {
    const outside = { cwd: work, encoding: 'utf8' as const, env: { PATH: process.env.PATH ?? '', HOME: work, PLATFORM_CONFIG_DIR: path.join(work, 'config') } };
    const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
    expect(spawnSync(platform, ['--version'], outside).stdout.trim()).toBe(pkg.version);
    expect(spawnSync(platform, ['--help'], outside).stdout).toContain('Usage: platform');
    const sandbox = spawn(platform, ['sandbox', 'serve', '--port', '0'], { ...outside, stdio: ['ignore', 'pipe', 'ignore'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        sandbox.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        sandbox.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
      });
      const list = spawnSync(platform, ['ads', 'campaigns', 'list', '--account', 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd', '-o', 'csv'], {
        ...outside,
        env: { ...outside.env, PLATFORM_BASE_URL: url },
      });
      expect(list.status, list.stderr).toBe(0);
      expect(list.stdout.split('\n')[0]).toBe('campaign_id,name,status,budget,currency,budget_unit');
    } finally {
      // Gone before its HOME is removed: on Node 22+ it writes its compile cache there as it ends.
      const exited = new Promise((resolve) => sandbox.once('exit', resolve));
      sandbox.kill('SIGINT');
      if (sandbox.exitCode === null && sandbox.signalCode === null) await exited;
    }
  });
});
