import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { firstAccount, sandboxOnFreePort, sandboxWithUser, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

/**
 * A sandbox of 60 campaigns (a patch of more than 50 rows reads the whole collection, page by
 * page) whose API requests each draw one number, throttled below 0.5: `throttle(n)` makes the
 * next n requests 429s, then every request passes. `rename(tag)` writes a CSV renaming them all.
 */
async function throttledSandbox() {
  const draws: number[] = [];
  const sandbox = await sandboxOnFreePort({ campaigns: 60, random: () => draws.shift() ?? 0.9, throttleRate: 0.5 });
  const user = new TestUser(sandbox);
  const account = (await firstAccount(user)).ad_account_id;
  const ids = (await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', account, '--all'])).map((c) => c.campaign_id);
  const rename = (tag: string) => {
    const csv = path.join(user.configDir, `${tag}.csv`);
    fs.writeFileSync(csv, `campaign_id,name\n${ids.map((id, i) => `${id},${tag} ${i}`).join('\n')}\n`);
    return csv;
  };
  return { sandbox, user, account, ids, rename, throttle: (n: number) => draws.push(...Array<number>(n).fill(0.1)) };
}

describe('retries against injected faults', () => {
  it('a list still succeeds while the sandbox answers 429s, 500s and drops connections', async () => {
    const expected = await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', account, '--all']);
    // The sandbox draws one number for "throttle?", then one for "fail?" and one for "500 or drop?".
    // This script cycles: pass, 429, pass, 500, pass, dropped connection.
    const script = [0.9, 0.9, 0.1, 0.9, 0.9, 0.9, 0.1, 0.1, 0.9, 0.9, 0.9, 0.1, 0.6];
    let draw = 0;
    const flaky = await sandboxOnFreePort({ random: () => script[draw++ % script.length]!, throttleRate: 0.5, failRate: 0.5 });
    try {
      const flakyUser = new TestUser(flaky);
      const flakyAccount = (await firstAccount(flakyUser)).ad_account_id;
      const rows = await flakyUser.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', flakyAccount, '--all', '--page-limit', '4']);
      expect(rows.map((r) => r.campaign_id)).toEqual(expected.map((r) => r.campaign_id));
      const statuses = flaky.stats.requests.map((r) => r.status);
      expect(statuses).toContain(429);
      expect(statuses).toContain(500);
      expect(statuses).toContain(0); // dropped
    } finally {
      await flaky.close();
    }
  });

  it('honours Retry-After on 429', async () => {
    sandbox.setFaults({ throttleRate: 1 });
    try {
      const clock = user.clock;
      clock.slept.length = 0;
      sandbox.resetStats();
      const result = await user.run(['ads', 'accounts', 'list']);
      expect(result.code).toBe(1);
      // Each retry waited the Retry-After second; the rate governor's shorter pacing waits come on top.
      const retries = sandbox.stats.apiRequests - 1;
      expect(retries).toBeGreaterThan(0);
      expect(clock.slept.filter((ms) => ms >= 1000)).toHaveLength(retries);
    } finally {
      sandbox.setFaults({ throttleRate: 0 });
    }
  });

  it('gives up after the bounded attempts with a clear message', async () => {
    sandbox.setFaults({ failRate: 1 });
    sandbox.resetStats();
    try {
      const result = await user.run(['ads', 'campaigns', 'list', '--account', account]);
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toMatch(/(Internal: .*gave up after 5 attempts|could not reach .*\(5 attempts\))/);
      expect(sandbox.stats.apiRequests).toBe(5);
    } finally {
      sandbox.setFaults({ failRate: 0 });
    }
  });

  it('says how to start the sandbox when nothing listens', async () => {
    const closed = await sandboxOnFreePort();
    const url = closed.url;
    await closed.close();
    const result = await user.run(['ads', 'accounts', 'list'], { env: { PLATFORM_BASE_URL: url } });
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/could not reach .*ECONNREFUSED.*platform sandbox serve/);
  });

  it("a bulk patch reads the current state with the batches' longer retry policy: six 429s in a row on the read do not end the run", async () => {
    const { sandbox: throttled, user: throttledUser, account: throttledAccount, ids, rename, throttle } = await throttledSandbox();
    try {
      expect(ids.length).toBeGreaterThan(50);
      const csv = rename('Read after 429s');
      throttled.resetStats();
      throttle(6);
      const run = await throttledUser.run(['ads', 'campaigns', 'patch', '--account', throttledAccount, '--from-csv', csv, '-o', 'ndjson']);
      expect(run.code, run.stderr).toBe(0);
      const requests = throttled.stats.requests.map((r) => `${r.method} ${r.status}`);
      expect(requests.slice(0, 7)).toEqual([...Array<string>(6).fill('GET 429'), 'GET 200']);
      expect(requests.filter((r) => r.startsWith('PATCH'))).toEqual(['PATCH 200']);
      for (const id of ids) expect(throttled.stats.writesById.get(id)).toBe(1);
    } finally {
      await throttled.close();
    }
  });

  it('when the read of the current state fails for good, every row still gets a result (not sent), nothing is written, and --resume sends them', async () => {
    const { sandbox: throttled, user: throttledUser, account: throttledAccount, ids, rename, throttle } = await throttledSandbox();
    try {
      const csv = rename('Unread');
      const journal = path.join(throttledUser.configDir, 'unread.journal');
      const args = ['ads', 'campaigns', 'patch', '--account', throttledAccount, '--from-csv', csv, '--journal', journal, '-o', 'ndjson'];
      throttled.resetStats();
      // Every attempt of the first read is throttled: 8 of 8.
      throttle(8);
      const failed = await throttledUser.run(args);
      expect(failed.code).toBe(1);
      const results = failed.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { line: number; result: string; error_code: string; error_message: string });
      expect(results.map((r) => r.line)).toEqual(ids.map((_, i) => i + 2));
      expect(new Set(results.map((r) => `${r.result} ${r.error_code}`))).toEqual(new Set(['skipped NotSent']));
      expect(results[0]!.error_message).toMatch(/^not sent: the current state could not be read \(.*RateLimitExceeded/);
      expect(throttled.stats.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
      expect(throttled.stats.writesById.size).toBe(0);

      // A dry run cannot preview without the current state: it ends with the read's error.
      throttle(8);
      const preview = await throttledUser.run(['ads', 'campaigns', 'patch', '--account', throttledAccount, '--from-csv', csv, '--dry-run', '-o', 'ndjson']);
      expect(preview.code).toBe(1);
      expect(preview.stderr).toMatch(/RateLimitExceeded/);

      const resumed = await throttledUser.run([...args, '--resume', journal]);
      expect(resumed.code, resumed.stderr).toBe(0);
      for (const id of ids) expect(throttled.stats.writesById.get(id)).toBe(1);
    } finally {
      await throttled.close();
    }
  });

  it('a write whose first attempt was applied but got no answer, then refused with 429s, says it may have been applied', async () => {
    // Draws per request: "throttle?" (below 0.5: 429), then "fail?" (below 0.5) and "how?" (0.75 and up: applied, then dropped).
    // The read passes; the first PATCH is applied and its answer lost; every later attempt is a 429.
    const draws: number[] = [];
    const faulty = await sandboxOnFreePort({ random: () => draws.shift() ?? 0.9, throttleRate: 0.5, failRate: 0.5 });
    try {
      const faultyUser = new TestUser(faulty);
      const faultyAccount = (await firstAccount(faultyUser)).ad_account_id;
      const [first] = await faultyUser.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--account', faultyAccount, '--limit', '1']);
      draws.push(0.9, 0.9, 0.9, 0.1, 0.9, ...Array<number>(10).fill(0.1));
      faulty.resetStats();
      const run = await faultyUser.run(['ads', 'campaigns', 'patch', '--account', faultyAccount, '--campaign-id', first!.campaign_id, '--name', 'Lost answer']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/RateLimitExceeded: .*\(gave up after \d+ attempts; an earlier attempt got no answer, so it may have been applied\)/);
      expect(faulty.stats.writesById.get(first!.campaign_id)).toBe(1);
    } finally {
      await faulty.close();
    }
  });

  it('a patch of one item from flags reads as any interactive command: a failed read is its one-line error, after the usual 5 attempts', async () => {
    const { sandbox: throttled, user: throttledUser, account: throttledAccount, ids, throttle } = await throttledSandbox();
    try {
      throttled.resetStats();
      throttle(5);
      const run = await throttledUser.run(['ads', 'campaigns', 'patch', '--account', throttledAccount, '--campaign-id', ids[0]!, '--name', 'One item']);
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/RateLimitExceeded.*gave up after 5 attempts/);
      expect(throttled.stats.requests.map((r) => `${r.method} ${r.status}`)).toEqual(Array<string>(5).fill('GET 429'));
    } finally {
      await throttled.close();
    }
  });
});
