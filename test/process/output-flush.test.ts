// Both streams arrive whole when the process exits, even through a slow pipe: a long
// --debug trace on stderr read by a slow consumer.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');
let sandbox: Sandbox;

beforeAll(async () => {
  sandbox = await sandboxOnFreePort({ campaigns: 3000 });
});
afterAll(() => sandbox.close());

describe('output at exit', () => {
  it('delivers 200 KiB or more of --debug trace whole to a reader that takes 1 byte per 10 ms at first', { timeout: scaled(60_000) }, async () => {
    const env = { PATH: process.env.PATH ?? '', HOME: tempDir(), PLATFORM_CONFIG_DIR: tempDir(), PLATFORM_BASE_URL: sandbox.url };
    const accounts = await fetch(`${sandbox.url}/v1/ads/ad-accounts`, { headers: { authorization: `Bearer ${await token()}` } });
    const account = ((await accounts.json()) as { ad_accounts: Array<{ ad_account_id: string }> }).ad_accounts[0]!.ad_account_id;
    const seqBefore = sandbox.stats.requests.at(-1)?.seq ?? 0;
    const child = spawn(process.execPath, [bin, 'ads', 'campaigns', 'list', '--account', account, '--all', '--page-limit', '20', '-o', 'ndjson', '--debug'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const chunks: Buffer[] = [];
    child.stderr.pause();
    // A slow consumer: one byte every 10 ms until the CLI has had its last page (it finishes
    // meanwhile and waits for the pipe to drain), then the rest.
    const pages = () => sandbox.stats.requests.filter((entry) => entry.seq > seqBefore && entry.method === 'GET' && entry.path.endsWith('/campaigns')).length;
    const slow = setInterval(() => {
      const byte = child.stderr.read(1) as Buffer | null;
      if (byte) chunks.push(byte);
    }, 10);
    try {
      await waitFor(() => pages() >= 150 || child.exitCode !== null, { what: 'the CLI to fetch its 150 pages', state: pages, timeoutMs: 30_000 });
    } finally {
      clearInterval(slow);
    }
    child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
    child.stderr.resume();
    const code = await new Promise<number | null>((resolve) => child.once('close', (c) => resolve(c)));
    const trace = Buffer.concat(chunks).toString('utf8');
    expect(code).toBe(0);
    expect(trace.length).toBeGreaterThanOrEqual(200 * 1024);
    // One token request and 150 pages of 20: every answer's status line is there.
    expect(trace.match(/^< 200 /gm)).toHaveLength(151);
    expect(trace.endsWith('\n')).toBe(true);
  });
});

async function token(): Promise<string> {
  const response = await fetch(`${sandbox.url}/oauth/v2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'sandbox-demo-client', client_secret: 'sandbox-demo-secret' }),
  });
  return ((await response.json()) as { access_token: string }).access_token;
}
