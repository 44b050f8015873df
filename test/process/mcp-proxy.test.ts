// `platform mcp` behind a corporate proxy and CA, as the CLI is (test/process/proxy-tls.test.ts):
// the sandbox behind an HTTPS front signed by a throwaway CA, reached only through a CONNECT
// proxy. A read tool works with --ca-file; without it, or with a CA that did not sign the
// front, or with a CA file that is not there, the tool error is the CLI's own one line for the
// same call, and the server goes on serving.
// Needs a fresh build: `npm run build --silent`.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_SERVER_TOKEN } from '../../src/sandbox/clients.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { cliEnv, runCli } from '../helpers/cli-process.js';
import { callTool, mcpOverStdio, toolError, type StdioMcp } from '../helpers/mcp.js';
import { systemTool } from '../helpers/system-tools.js';
import { FRONT_HOST, makeTestCa, startForwardProxy, startTlsFront, type ForwardProxy, type Front, type TestCa } from '../helpers/tls-proxy.js';
import { scaled } from '../helpers/time-scale.js';

const ACCOUNT = 'a087eaf3-00b3-49c9-8706-c4ebfb2627fd';
const openssl = systemTool('openssl');

let dir: string;
let sandbox: Sandbox;
let ca: TestCa;
let otherCa: string;
let front: Front;
let proxy: ForwardProxy;
const open: StdioMcp[] = [];

beforeAll(async () => {
  if (!openssl.present) return;
  dir = tempDir('platform-mcp-proxy-');
  ca = makeTestCa(dir);
  otherCa = makeTestCa(tempDir('platform-mcp-other-ca-')).caFile;
  [sandbox, proxy] = await Promise.all([sandboxOnFreePort(), startForwardProxy()]);
  front = await startTlsFront(sandbox, ca);
}, scaled(60_000));
afterAll(async () => {
  if (!openssl.present) return;
  await Promise.all(open.map((m) => m.close()));
  await Promise.all([front.close(), proxy.close(), sandbox.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The sandbox by a name only the proxy resolves: a call that works went through it. */
const env = () => ({
  ...cliEnv(dir, `https://${FRONT_HOST}:${front.port}`),
  HTTPS_PROXY: proxy.url,
  PLATFORM_SERVER_TOKEN: SANDBOX_DEMO_SERVER_TOKEN,
});
async function server(args: string[]): Promise<StdioMcp> {
  const started = await mcpOverStdio(args, env());
  open.push(started);
  return started;
}
const list = { account: ACCOUNT, limit: 2 };

describe.skipIf(!openssl.present)(`platform mcp through a proxy, trusting a CA${openssl.skipNote}`, () => {
  it('lists campaigns through the CONNECT tunnel with --ca-file', { timeout: scaled(30_000) }, async () => {
    const tunnels = proxy.tunnels().length;
    const seen = front.requests.length;
    const mcp = await server(['--ca-file', ca.caFile]);
    const page = await callTool<{ items: unknown[] }>(mcp.client, 'ads_campaigns_list', list);
    expect(page.items).toHaveLength(2);
    expect(
      proxy
        .tunnels()
        .slice(tunnels)
        .map((e) => e.target),
    ).toContain(`${FRONT_HOST}:${front.port}`);
    expect(front.requests.slice(seen).some((r) => r.path.startsWith(`/v1/ads/${ACCOUNT}/campaigns`))).toBe(true);
  });

  it('an untrusted certificate or a missing CA file: the CLI`s one line as a tool error, and the server lives on', { timeout: scaled(60_000) }, async () => {
    const cases: Array<[string, string[], string]> = [
      ['no CA', [], 'failed, exit 1'],
      ['a CA that did not sign the front', ['--ca-file', otherCa], 'failed, exit 1'],
      ['a CA file that is not there', ['--ca-file', path.join(dir, 'missing.pem')], 'usage, exit 2'],
    ];
    for (const [what, flags, meaning] of cases) {
      const cli = await runCli(['ads', 'campaigns', 'list', '--account', ACCOUNT, '--limit', '2', ...flags], env());
      expect(cli.code, `${what}: ${cli.stderr}`).toBe(Number(meaning.slice(-1)));
      const line = cli.stderr.trimEnd();
      expect(line.split('\n'), what).toHaveLength(1);
      const mcp = await server(flags);
      expect(await toolError(mcp.client, 'ads_campaigns_list', list), what).toBe(`${line} [${meaning}]`);
      // Still serving: the next call gets its answer, the same error again.
      expect(await toolError(mcp.client, 'ads_campaigns_list', list), what).toBe(`${line} [${meaning}]`);
    }
  });
});
