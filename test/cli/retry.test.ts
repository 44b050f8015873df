import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { firstAccount, sandboxOnFreePort, sandboxWithUser, TestUser } from '../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

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
      const result = await user.run(['ads', 'accounts', 'list']);
      expect(result.code).toBe(1);
      expect(clock.slept.length).toBeGreaterThan(0);
      expect(Math.min(...clock.slept)).toBeGreaterThanOrEqual(1000);
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
});
