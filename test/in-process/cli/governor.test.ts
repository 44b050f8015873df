// The quota governor in a bulk run against a rate-limited sandbox: the sandbox and the CLI
// share one injected clock, so the limit's window and the governor's pace agree.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { fastClock, firstAccount, sandboxOnFreePort, tempDir, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox | undefined;
afterEach(() => sandbox?.close());

async function setup(options: { rateLimit?: number; campaigns: number }) {
  // 10x, not 100x: a millisecond the event loop is busy would be 100 ms of the sandbox's time, and requests
  // the governor spaced would reach the limit's window together.
  const clock = fastClock(10);
  sandbox = await sandboxOnFreePort({ campaigns: options.campaigns, seed: 4, rateLimit: options.rateLimit, now: clock.now });
  const user = new TestUser(sandbox);
  // The sandbox's clock is the CLI's: the user's runs take it.
  Object.defineProperty(user, 'clock', { value: clock });
  const account = (await firstAccount(user)).ad_account_id;
  const ids = (await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', account, '--all'])).map((c) => c.campaign_id);
  const csv = path.join(tempDir(), 'names.csv');
  fs.writeFileSync(csv, ['campaign_id,name', ...ids.map((id, i) => `${id},Paced ${i}`)].join('\n') + '\n');
  return { sandbox, user, account, csv, clock };
}

describe('quota governor', () => {
  it('a bulk patch with 4 batches in flight against 5 requests/s is rarely refused, and leaves the measured budget in the state folder', async () => {
    const { sandbox, user, account, csv } = await setup({ rateLimit: 5, campaigns: 1000 });
    const before = sandbox.stats.requests.length;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', csv, '--batch-size', '20', '-o', 'ndjson']);
    expect(result.code, result.stderr.slice(-2000)).toBe(0);
    const statuses = sandbox.stats.requests.slice(before).map((r) => r.status);
    const refused = statuses.filter((s) => s === 429).length;
    // 50 batches and the reads; unpaced, four in flight meet the limit on most of them.
    expect(statuses.length).toBeGreaterThanOrEqual(50);
    expect(refused / statuses.length).toBeLessThanOrEqual(0.1);
    const budgets = path.join(user.configDir, '.local', 'state', 'platform', 'budgets');
    const [file] = fs.readdirSync(budgets).filter((name) => name.endsWith('.json'));
    const budget = JSON.parse(fs.readFileSync(path.join(budgets, file!), 'utf8')) as { ceiling: number };
    expect(budget.ceiling).toBeGreaterThan(2);
    expect(budget.ceiling).toBeLessThanOrEqual(8);
  });

  it('--max-rate paces the writes from the first one, with no limit in sight', async () => {
    const { user, account, csv, clock } = await setup({ campaigns: 100 });
    const started = clock.now();
    const result = await user.run([
      'ads',
      'campaigns',
      'patch',
      '--account',
      account,
      '--from-csv',
      csv,
      '--batch-size',
      '10',
      '--max-rate',
      '4',
      '-o',
      'ndjson',
    ]);
    expect(result.code, result.stderr).toBe(0);
    // A read and 10 batches at 4 per second take 2.5 s by the injected clock (without --max-rate, no wait at all).
    const took = clock.now() - started;
    expect(took).toBeGreaterThanOrEqual(2400);
    expect(took).toBeLessThan(6000);
  });

  it('--max-rate 0 is refused before anything is sent', async () => {
    const { sandbox, user, account, csv } = await setup({ campaigns: 10 });
    const before = sandbox.stats.requests.length;
    const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', csv, '--max-rate', '0']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^.*--max-rate.*above 0/m);
    expect(sandbox.stats.requests.length).toBe(before);
  });
});
