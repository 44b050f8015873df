// The sandbox's memory stays bounded under load (figures: npm run bench -- sandbox-load):
// the request log keeps the newest entries, the idempotency store drops expired and oldest
// keys, and large bodies past the limit or the budget are refused without being buffered.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pruneKeys } from '../../src/sandbox/idempotency.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { REQUEST_LOG_SIZE } from '../../src/sandbox/server.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { getToken } from '../helpers/sandbox.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

describe('bounded memory', () => {
  it('keeps at most twice REQUEST_LOG_SIZE entries in the request log, the newest last', async () => {
    for (let i = 0; i < 2 * REQUEST_LOG_SIZE + 50; i++) await fetch(`${sandbox.url}/no-such-route-${i}`);
    expect(sandbox.stats.requests.length).toBeLessThanOrEqual(2 * REQUEST_LOG_SIZE);
    expect(sandbox.stats.requests.at(-1)!.path).toBe(`/no-such-route-${2 * REQUEST_LOG_SIZE + 49}`);
  });

  it('drops expired idempotency keys and the oldest beyond the bound', () => {
    const keys = new Map<string, { expires_at: number }>();
    for (let i = 0; i < 10; i++) keys.set(`k${i}`, { expires_at: i < 3 ? 100 : 1000 });
    pruneKeys(keys, 500, 5);
    expect([...keys.keys()]).toEqual(['k6', 'k7', 'k8', 'k9']);
  });

  it('refuses 10 concurrent 31 MB bodies without buffering them, and keeps serving', { timeout: scaled(60_000) }, async () => {
    const token = await getToken(sandbox.url);
    const body = JSON.stringify({ campaigns: [{ campaign_id: 'x', name: 'y'.repeat(31 * 1024 * 1024) }] });
    const statuses = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const response = await fetch(`${sandbox.url}/v1/ads/a/campaigns`, {
          method: 'PATCH',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body,
        });
        await response.arrayBuffer();
        return response.status;
      }),
    );
    expect(statuses.every((s) => s === 413 || s === 503)).toBe(true);
    expect((await fetch(`${sandbox.url}/v1/ads/ad-accounts`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // A generous bound: 310 MB through loopback took 12-14 s in busy CI runs (3 s alone).
  });
});

describe('--state under SIGKILL', () => {
  it('is whole after a kill at any moment of a busy run, five times, and the sandbox starts from it', { timeout: scaled(60_000) }, async () => {
    const dir = tempDir();
    const state = path.join(dir, 'state.json');
    const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');
    for (let round = 0; round < 5; round++) {
      const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '--state', state], { stdio: ['ignore', 'pipe', 'ignore'] });
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const match = /listening on (http:\/\/\S+)/.exec(out);
          if (match) resolve(match[1]!);
        });
        child.once('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
      });
      const token = await getToken(url);
      const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const account = ((await (await fetch(`${url}/v1/ads/ad-accounts`, { headers })).json()) as { ad_accounts: Array<{ ad_account_id: string }> })
        .ad_accounts[0]!.ad_account_id;
      // Writes keep the state file being rewritten until the kill, which lands somewhere in them.
      let writing = true;
      let sent = 0;
      const writer = (async () => {
        while (writing) {
          const i = sent++;
          await fetch(`${url}/v1/ads/${account}/campaigns`, {
            method: 'POST',
            headers,
            body: JSON.stringify({
              campaigns: [
                {
                  name: `Round ${round} ${i}`,
                  configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE',
                  budget: { unit: 'BUDGET_UNIT_DAILY', total: { amount_e5: '100000', currency_code: 'USD' } },
                },
              ],
            }),
          }).catch(() => undefined);
        }
      })();
      // Kill once this round's writes have reached the file (it is rewritten after each burst),
      // at a different point of the next rewrite each round.
      const before = fs.existsSync(state) ? fs.statSync(state).mtimeMs : 0;
      await waitFor(() => fs.existsSync(state) && fs.statSync(state).mtimeMs !== before, {
        what: `round ${round}: the state file rewritten`,
        timeoutMs: 20_000,
      });
      // Not a wait: the state file is rewritten every 250 ms while writes go on, and each round
      // kills a little later after a rewrite (0, 70 ... 280 ms) so that the kills fall at
      // different points of the next one. Any moment is a valid one to kill at.
      await new Promise((resolve) => setTimeout(resolve, round * 70));
      // Listened for before the kill: on a busy machine the exit can come before the writes fail.
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      writing = false;
      await writer;
      await exited;
      expect(fs.existsSync(state), `round ${round}: no state file`).toBe(true);
      expect(() => JSON.parse(fs.readFileSync(state, 'utf8')) as unknown).not.toThrow();
    }
    const again = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '--state', state], { stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string | undefined>((resolve) => {
      let out = '';
      again.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        const match = /listening on (http:\/\/\S+)/.exec(out);
        if (match) resolve(match[1]);
      });
      again.once('exit', () => resolve(undefined));
    });
    try {
      expect(url).toBeDefined();
      // Started from the state the kills left: the campaigns it holds are the ones written then.
      const token = await getToken(url!);
      const headers = { authorization: `Bearer ${token}` };
      const account = ((await (await fetch(`${url}/v1/ads/ad-accounts`, { headers })).json()) as { ad_accounts: Array<{ ad_account_id: string }> })
        .ad_accounts[0]!.ad_account_id;
      const saved = JSON.parse(fs.readFileSync(state, 'utf8')) as unknown;
      const written = JSON.stringify(saved).match(/Round \d+ \d+/g) ?? [];
      const listed = (await (await fetch(`${url}/v1/ads/${account}/campaigns?page_limit=2000`, { headers })).json()) as { campaigns: Array<{ name: string }> };
      const served = listed.campaigns.map((c) => c.name).filter((name) => /^Round \d+ \d+$/.test(name));
      expect(written.length).toBeGreaterThan(0);
      expect(served.sort()).toEqual([...new Set(written)].sort());
    } finally {
      again.kill('SIGINT');
    }
  });
});
