// The built-in `local` profile reaches the reporting and product routes with its default
// token (the sandbox client grants ads.reporting and ads.products.read), through the CLI.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

describe('local profile and the reporting routes', () => {
  it('lists products and runs a sync report with `platform api`', async () => {
    const products = await user.run(['api', `/v1/ads/${account}/products?page_limit=3`]);
    expect(products.code, products.stderr).toBe(0);
    expect(JSON.parse(products.stdout).products).toHaveLength(3);
    const body = JSON.stringify({
      report_type: 'CAMPAIGN_PERFORMANCE',
      time_range: { start_time: '2025-01-13T00:00:00Z', end_time: '2025-01-14T00:00:00Z' },
      columns: ['campaign_id', 'clicks'],
      time_unit: 'DAILY',
    });
    const sync = await user.run(['api', 'POST', `/v1/ads/${account}/reporting/sync`, '--input', '-'], { stdin: body });
    expect(sync.code, sync.stderr).toBe(0);
    const parsed = JSON.parse(sync.stdout);
    expect(parsed.schema.columns.map((c: { name: string }) => c.name)).toEqual(['day_of', 'campaign_id', 'clicks']);
    expect(parsed.data.rows.length).toBeGreaterThan(0);
  });
});
