// Behind a corporate proxy with a corporate CA, as the built CLI runs there (env read by
// main.ts, transport built by the factory): the sandbox stands behind an HTTPS front whose
// certificate a throwaway CA signs, and a real forward proxy tunnels CONNECTs to it. Each of
// the four kinds of call (token endpoint, ads API, rider API, report download) runs as its own
// process through each way out: direct, an HTTP proxy for an http:// target, a CONNECT
// tunnel for an https:// one, and a tunnel that needs credentials.
// Needs a fresh build: `npm run build --silent`.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_SERVER_TOKEN } from '../../src/sandbox/clients.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { systemTool } from '../helpers/system-tools.js';
import { FRONT_HOST, makeTestCa, startForwardProxy, startTlsFront, type ForwardProxy, type Front, type TestCa } from '../helpers/tls-proxy.js';
import { scaled } from '../helpers/time-scale.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');
const openssl = systemTool('openssl');

// Proxy credentials with characters a URL must percent-encode.
const PROXY_USER = 'corp user';
const PROXY_PASSWORD = 'p@ss:w0rd%';
const PROXY_USERINFO = `${encodeURIComponent(PROXY_USER)}:${encodeURIComponent(PROXY_PASSWORD)}`;
const PROXY_BASIC = Buffer.from(`${PROXY_USER}:${PROXY_PASSWORD}`).toString('base64');

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The built CLI with only these variables (none of the test runner's proxies), in a fresh config. */
function platform(args: string[], env: Record<string, string>): Promise<Run> {
  const home = tempDir('platform-proxy-');
  const child = spawn(process.execPath, [bin, ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: home, PLATFORM_CONFIG_DIR: path.join(home, 'config'), NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

let sandbox: Sandbox;
let ca: TestCa;
let front: Front;
let open: ForwardProxy;
let guarded: ForwardProxy;
let account: string;
let dir: string;

beforeAll(async () => {
  if (!openssl.present) return;
  dir = tempDir('platform-proxy-ca-');
  ca = makeTestCa(dir);
  [sandbox, open, guarded] = await Promise.all([
    sandboxOnFreePort({ timeScale: 1000 }),
    startForwardProxy(),
    startForwardProxy({ credentials: `${PROXY_USER}:${PROXY_PASSWORD}` }),
  ]);
  front = await startTlsFront(sandbox, ca);
  const accounts = await fetch(`${sandbox.url}/v1/ads/ad-accounts`, { headers: { authorization: `Bearer ${await sandboxToken()}` } });
  account = ((await accounts.json()) as { ad_accounts?: Array<{ ad_account_id: string }> }).ad_accounts?.[0]?.ad_account_id ?? '';
}, scaled(60_000));
afterAll(async () => {
  if (!openssl.present) return;
  await Promise.all([front.close(), open.close(), guarded.close(), sandbox.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

async function sandboxToken(): Promise<string> {
  const { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } = await import('../../src/schemas/sandbox.js');
  const answer = await fetch(`${sandbox.url}/oauth/v2/token`, {
    method: 'POST',
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX_DEMO_CLIENT_ID, client_secret: SANDBOX_DEMO_CLIENT_SECRET }),
  });
  return ((await answer.json()) as { access_token: string }).access_token;
}

/** One kind of call: its command line, and how to tell from the output that it worked. */
interface Call {
  name: string;
  args: () => string[];
  /** The path the call reaches on the API's side (through the front or the proxy). */
  path: RegExp;
  check: (run: Run) => void;
}

const calls: Call[] = [
  {
    name: 'token',
    args: () => ['auth', 'token'],
    path: /^\/oauth\/v2\/token$/,
    check: (run) => expect(run.stdout.trim()).toMatch(/^\S{16,}$/),
  },
  {
    name: 'ads',
    args: () => ['ads', 'accounts', 'list', '--json'],
    path: /^\/v1\/ads\/ad-accounts/,
    check: (run) => expect((JSON.parse(run.stdout) as Array<{ ad_account_id: string }>).map((a) => a.ad_account_id)).toContain(account),
  },
  {
    name: 'rider',
    args: () => ['rider', 'products', '--at', '37.7749,-122.4194', '--json'],
    path: /^\/v1\.2\/products/,
    check: (run) => expect((JSON.parse(run.stdout) as unknown[]).length).toBeGreaterThan(0),
  },
  {
    name: 'download',
    // A fresh folder for the file each time.
    args: () => [
      ...['ads', 'reports', 'run', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'day_of,campaign_id,clicks'],
      ...['--since', '2025-01-13', '--until', '2025-01-20', '--out', path.join(tempDir('platform-proxy-report-'), 'week.csv')],
    ],
    path: /^\/reports\//,
    check: (run) => expect(run.stderr).toMatch(/Saved report report_[0-9a-f]+ to .*week\.csv/),
  },
];

describe.skipIf(!openssl.present)(`calls behind a proxy and a corporate CA, as processes${openssl.skipNote}`, () => {
  const common = () => ({ PLATFORM_SERVER_TOKEN: SANDBOX_DEMO_SERVER_TOKEN });

  describe.each(calls)('$name', (call) => {
    it('direct to an https:// target with --ca-file', async () => {
      const seen = front.requests.length;
      const run = await platform([...call.args(), '--ca-file', ca.caFile], { ...common(), PLATFORM_BASE_URL: `https://localhost:${front.port}` });
      expect(run.code, run.stderr).toBe(0);
      call.check(run);
      expect(front.requests.slice(seen).some((r) => call.path.test(r.path))).toBe(true);
    });

    it('an http:// target through HTTP_PROXY: absolute-form requests, no tunnel', async () => {
      const seen = open.log.length;
      const run = await platform(call.args(), { ...common(), PLATFORM_BASE_URL: sandbox.url, HTTP_PROXY: open.url });
      expect(run.code, run.stderr).toBe(0);
      call.check(run);
      const logged = open.log.slice(seen);
      expect(logged.some((e) => e.method !== 'CONNECT' && call.path.test(new URL(e.target).pathname))).toBe(true);
      expect(logged.filter((e) => e.method === 'CONNECT')).toEqual([]);
    });

    it('an https:// target through HTTPS_PROXY: a CONNECT tunnel, TLS to the target trusted with --ca-file', async () => {
      const tunnels = open.tunnels().length;
      const seen = front.requests.length;
      // FRONT_HOST resolves only at the proxy: the call cannot have gone direct.
      const run = await platform([...call.args(), '--ca-file', ca.caFile], {
        ...common(),
        PLATFORM_BASE_URL: `https://${FRONT_HOST}:${front.port}`,
        HTTPS_PROXY: open.url,
      });
      expect(run.code, run.stderr).toBe(0);
      call.check(run);
      expect(
        open
          .tunnels()
          .slice(tunnels)
          .map((e) => e.target),
      ).toContain(`${FRONT_HOST}:${front.port}`);
      expect(front.requests.slice(seen).some((r) => call.path.test(r.path) && r.host === `${FRONT_HOST}:${front.port}`)).toBe(true);
    });

    it('through a proxy that wants credentials: user:password from the URL, percent-decoded, and never in --debug', async () => {
      const tunnels = guarded.tunnels().length;
      const run = await platform([...call.args(), '--ca-file', ca.caFile, '--debug'], {
        ...common(),
        PLATFORM_BASE_URL: `https://${FRONT_HOST}:${front.port}`,
        https_proxy: `http://${PROXY_USERINFO}@${guarded.url.slice('http://'.length)}`,
      });
      expect(run.code, run.stderr).toBe(0);
      call.check(run);
      const opened = guarded.tunnels().slice(tunnels);
      expect(opened.length).toBeGreaterThan(0);
      expect(opened.every((e) => e.proxyAuthorization === `Basic ${PROXY_BASIC}`)).toBe(true);
      expect(run.stderr).toContain(`* through the proxy ${guarded.url} (https_proxy, with credentials)`);
      for (const secret of [PROXY_PASSWORD, encodeURIComponent(PROXY_PASSWORD), PROXY_BASIC]) expect(run.stderr + run.stdout).not.toContain(secret);
    });
  });

  it('without --ca-file, the untrusted certificate is one line naming the fix (exit 1), after one tunnel', async () => {
    const tunnels = open.tunnels().length;
    const run = await platform(['ads', 'accounts', 'list'], { PLATFORM_BASE_URL: `https://${FRONT_HOST}:${front.port}`, HTTPS_PROXY: open.url });
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain(`could not reach https://${FRONT_HOST}:${front.port} through the proxy ${open.url} (from HTTPS_PROXY;`);
    expect(run.stderr).toContain("the server's TLS certificate is not signed by a trusted CA (UNABLE_TO_VERIFY_LEAF_SIGNATURE)");
    expect(run.stderr).toContain('--ca-file FILE (or PLATFORM_CA_FILE)');
    expect(open.tunnels().length).toBe(tunnels + 1);
  });

  it('ALL_PROXY carries https:// calls when HTTPS_PROXY is unset', async () => {
    const tunnels = open.tunnels().length;
    const run = await platform(['ads', 'accounts', 'list', '--json', '--ca-file', ca.caFile], {
      PLATFORM_BASE_URL: `https://${FRONT_HOST}:${front.port}`,
      ALL_PROXY: open.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(open.tunnels().length).toBeGreaterThan(tunnels);
  });

  it('HTTP_PROXY alone is not used for an https:// target (as curl): the call goes direct', async () => {
    const seen = open.log.length;
    const run = await platform(['ads', 'accounts', 'list', '--json', '--ca-file', ca.caFile], {
      PLATFORM_BASE_URL: `https://localhost:${front.port}`,
      HTTP_PROXY: open.url,
      http_proxy: open.url,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(open.log.length).toBe(seen);
  });
});
