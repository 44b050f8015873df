// The config folder on a disk that is full or read-only, for real: each scenario runs the
// built CLI inside `unshare -rm` (a mount namespace of its own, as root or as an unprivileged
// user where user namespaces are allowed) on a size-limited tmpfs, which it fills or remounts
// read-only. Nothing is mounted outside the child, so nothing is left behind. Where the
// machine allows no such namespace, the tests are skipped, saying why.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { httpBrowser, startCli } from '../helpers/auth.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');

/** Whether this machine lets a process mount a tmpfs in a namespace of its own. */
function namespacesAllowed(): boolean {
  const probe = tempDir('platform-ns-probe-');
  const result = spawnSync('unshare', ['-rm', 'sh', '-c', `mount -t tmpfs -o size=64k tmpfs '${probe}'`], { stdio: 'ignore' });
  fs.rmSync(probe, { recursive: true, force: true });
  return result.status === 0;
}
const allowed = namespacesAllowed();
const note = allowed ? '' : ' (skipped: `unshare -rm` with a tmpfs mount is not permitted here)';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

interface Step {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `script` (sh) in a new mount namespace with a 256 KiB tmpfs at $DIR holding a copy of
 * `config`. `run NAME ARGS...` runs the CLI with $DIR as its config folder; each step's
 * output comes back by name, and the config as the script left it as `final`.
 */
async function inNamespace(
  config: unknown,
  script: string,
  env: Record<string, string>,
  onChild?: (pid: number, dir: string) => void,
): Promise<{ steps: Record<string, Step>; final: unknown }> {
  const dir = tempDir('platform-ns-config-');
  const out = tempDir('platform-ns-out-');
  const seed = path.join(out, 'seed.json');
  fs.writeFileSync(seed, JSON.stringify(config));
  const prelude = [
    'set -e',
    `mount -t tmpfs -o size=256k,mode=0700 tmpfs "$DIR"`,
    'cp "$SEED" "$DIR/config.json"',
    'chmod 600 "$DIR/config.json"',
    'run() { name=$1; shift; set +e; "$NODE" "$BIN" "$@" >"$OUT/$name.out" 2>"$OUT/$name.err"; echo $? >"$OUT/$name.code"; set -e; }',
    'fill() { dd if=/dev/zero of="$DIR/filler" bs=4096 2>/dev/null || true; }',
  ].join('\n');
  const ending = '\ncat "$DIR/config.json" >"$OUT/final.json" 2>/dev/null || true\n';
  const child = spawn('unshare', ['-rm', 'sh', '-c', `${prelude}\n${script}${ending}`], {
    env: {
      PATH: process.env.PATH ?? '',
      NODE: process.execPath,
      BIN: bin,
      DIR: dir,
      OUT: out,
      SEED: seed,
      HOME: out,
      PLATFORM_CONFIG_DIR: dir,
      PLATFORM_BASE_URL: sandbox.url,
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  onChild?.(child.pid!, dir);
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)));
  if (code !== 0) throw new Error(`the namespace script failed (${code}): ${stderr}`);
  const steps: Record<string, Step> = {};
  for (const name of fs.readdirSync(out)) {
    if (!name.endsWith('.code')) continue;
    const step = name.slice(0, -'.code'.length);
    const read = (ext: string) => fs.readFileSync(path.join(out, `${step}.${ext}`), 'utf8');
    steps[step] = { code: Number(read('code').trim()), stdout: read('out'), stderr: read('err') };
  }
  const finalText = fs.existsSync(path.join(out, 'final.json')) ? fs.readFileSync(path.join(out, 'final.json'), 'utf8') : '';
  fs.rmSync(out, { recursive: true, force: true });
  fs.rmSync(dir, { recursive: true, force: true });
  return { steps, final: finalText ? (JSON.parse(finalText) as unknown) : undefined };
}

type Token = { access_token: string; refresh_token?: string; expires_at: number };
type Config = { default_profile?: string; profiles: Record<string, { token?: Token }> };

/** A config with a client-credentials token for `local`, made by the CLI. */
async function clientCredentialsConfig(): Promise<Config> {
  const user = new TestUser(sandbox);
  const login = await user.run(['auth', 'login', '--client-credentials']);
  if (login.code !== 0) throw new Error(login.stderr);
  return user.readConfig();
}

/** A config signed in with the browser to profile `work`, its token set to expire at `expiresAt`. */
async function signedInConfig(expiresAt: number): Promise<Config> {
  const user = new TestUser(sandbox, { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
  const login = await startCli(user, ['auth', 'login', '--profile', 'work', '--client-id', 'sandbox-demo-client', '--base-url', sandbox.url], {
    openUrl: httpBrowser().openUrl,
  }).done;
  if (login.code !== 0) throw new Error(login.stderr);
  const config = user.readConfig();
  config.profiles.work!.token!.expires_at = expiresAt;
  return config;
}

const noStack = (text: string) => expect(text).not.toMatch(/^\s+at /m);

describe.skipIf(!allowed)(`a read-only config folder${note}`, () => {
  it('serves a cached token and PLATFORM_TOKEN; a write fails in one line; a client-credentials token is used unsaved', async () => {
    const config = await clientCredentialsConfig();
    const expired = structuredClone(config);
    expired.profiles.local!.token!.expires_at = Date.now() - 1000;
    const token = config.profiles.local!.token!.access_token;
    const { steps } = await inNamespace(
      config,
      [
        'mount -o remount,ro "$DIR"',
        'run cached ads accounts list --json',
        'PLATFORM_TOKEN="$CI_TOKEN" run env ads accounts list --json',
        'run logout auth logout',
      ].join('\n'),
      { CI_TOKEN: token },
    );
    expect(steps.cached!.code, steps.cached!.stderr).toBe(0);
    expect(JSON.parse(steps.cached!.stdout)).not.toHaveLength(0);
    expect(steps.cached!.stderr).toBe('');
    expect(steps.env!.code, steps.env!.stderr).toBe(0);
    expect(steps.logout!.code).toBe(1);
    expect(steps.logout!.stderr.trim().split('\n')).toHaveLength(1);
    expect(steps.logout!.stderr).toMatch(/^could not write the config file .*config\.json: the file system is read-only \(EROFS\); make .* writable/);
    noStack(steps.logout!.stderr);

    const renewed = await inNamespace(expired, ['mount -o remount,ro "$DIR"', 'run list ads accounts list --json'].join('\n'), {});
    const list = renewed.steps.list!;
    expect(list.code, list.stderr).toBe(0);
    expect(list.stderr.trim()).toMatch(
      /^the new token of profile local could not be saved \(the config file .*config\.json: the file system is read-only \(EROFS\)\), so it is used for this command only$/,
    );
    expect(renewed.final).toEqual(expired);
  });

  it('with PLATFORM_TOKEN and no config file at all', async () => {
    const config = await clientCredentialsConfig();
    const { steps } = await inNamespace({}, ['rm "$DIR/config.json"', 'mount -o remount,ro "$DIR"', 'run env ads accounts list --json'].join('\n'), {
      PLATFORM_TOKEN: config.profiles.local!.token!.access_token,
    });
    expect(steps.env!.code, steps.env!.stderr).toBe(0);
  });
});

describe.skipIf(!allowed)(`a full disk under the config folder during a token refresh${note}`, () => {
  const env = { PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET, PLATFORM_PROFILE: 'work' };

  it('an expired sign-in is not refreshed while nothing can be saved: exit 1 in one line, and once space is freed the profile is still signed in', async () => {
    const config = await signedInConfig(Date.now() - 1000);
    sandbox.resetStats();
    const { steps, final } = await inNamespace(
      config,
      ['fill', 'run full ads accounts list --json', 'rm "$DIR/filler"', 'run freed ads accounts list --json', 'run again ads accounts list --json'].join('\n'),
      env,
    );
    expect(steps.full!.code).toBe(1);
    expect(steps.full!.stderr.trim()).toMatch(
      /^could not renew the sign-in of profile work: the config file .*config\.json cannot be written \(no space left on the device \(ENOSPC\)\), and a renewal retires the saved refresh token, so none was sent; free some space there and run the command again \(the sign-in is kept\)$/,
    );
    noStack(steps.full!.stderr);
    expect(steps.freed!.code, steps.freed!.stderr).toBe(0);
    expect(steps.again!.code, steps.again!.stderr).toBe(0);
    // One refresh in all: the one after space was freed, saved and used by the last run.
    expect(sandbox.stats.tokenRequests).toBe(1);
    expect((final as Config).profiles.work!.token!.refresh_token).not.toBe(config.profiles.work!.token!.refresh_token);
  });

  it('a token within 5 minutes of expiry is used as it is while the disk is full, and says so', async () => {
    const config = await signedInConfig(Date.now() + 4 * 60_000);
    sandbox.resetStats();
    const { steps, final } = await inNamespace(config, ['fill', 'run full ads accounts list --json'].join('\n'), env);
    expect(steps.full!.code, steps.full!.stderr).toBe(0);
    expect(steps.full!.stderr.trim()).toMatch(
      /^the token of profile work was not renewed: the config file .*config\.json cannot be written \(no space left on the device \(ENOSPC\)\), and a renewal retires the saved refresh token; using the current one \(it expires in [45] min\)$/,
    );
    expect(sandbox.stats.tokenRequests).toBe(0);
    expect(final).toEqual(config);
  });

  it('a disk that fills up while the refresh is in flight still gets the rotated token: its room was reserved before it was asked for', async () => {
    const config = await signedInConfig(Date.now() - 1000);
    // In front of the sandbox: the token request fills the child's tmpfs before it is answered.
    let child: { pid: number; dir: string } | undefined;
    let filled = 0;
    const proxy = http.createServer((req, res) => {
      if (req.url?.startsWith('/oauth/v2/token') && child) filled = fillUp(path.join(`/proc/${child.pid}/root`, child.dir, 'filler-in-flight'));
      const upstream = http.request(new URL(req.url!, sandbox.url), { method: req.method, headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode!, answer.headers);
        answer.pipe(res);
      });
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      const { steps, final } = await inNamespace(
        config,
        'run list ads accounts list --json',
        { ...env, PLATFORM_BASE_URL: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}` },
        (pid, dir) => (child = { pid, dir }),
      );
      expect(filled).toBeGreaterThan(0);
      expect(steps.list!.code, steps.list!.stderr).toBe(0);
      expect(steps.list!.stderr).toBe('');
      const saved = (final as Config).profiles.work!.token!;
      expect(saved.refresh_token).not.toBe(config.profiles.work!.token!.refresh_token);
      expect(saved.expires_at).toBeGreaterThan(Date.now());
    } finally {
      proxy.close();
    }
  });
});

/** Writes to `file` until the disk is full; returns the bytes written. */
function fillUp(file: string): number {
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(4096);
  let written = 0;
  try {
    for (;;) written += fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
  return written;
}
