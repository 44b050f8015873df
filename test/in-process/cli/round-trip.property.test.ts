// Round trips as a property (fast-check): for generated campaigns, `list -o csv` fed to
// `patch --from-csv` reports every row unchanged and writes nothing; editing one cell of one
// row changes exactly that field of that campaign, checked over raw HTTP.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';
import { campaignArb, createCampaigns } from '../../helpers/campaign-arbs.js';
import { oneMore } from '../../helpers/decimal.js';
import { api, getToken } from '../../helpers/sandbox.js';
import { scaled } from '../../helpers/time-scale.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let token: string;

beforeAll(async () => {
  // An account of its own: only the generated campaigns are listed.
  ({ sandbox, user, account } = await sandboxWithUser({ campaigns: 0 }));
  token = await getToken(sandbox.url);
});
afterAll(() => sandbox.close());

type Json = Record<string, any>;

async function listed(ids: string[]): Promise<Map<string, Json>> {
  const all = new Map<string, Json>();
  for (const id of ids) all.set(id, (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?campaign_id=${id}`)).body.campaigns[0]);
  return all;
}

/** What a patch may change of a campaign; the rest (timestamps, ids) is the server's. */
const fields = (c: Json) => ({ name: c.name, configured_status: c.configured_status, budget: c.budget });

describe('list -o csv -> patch --from-csv', () => {
  it('reports every row unchanged; one edited cell changes exactly that field', { timeout: scaled(120_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(campaignArb, { minLength: 1, maxLength: 4 }),
        fc.nat(),
        fc.constantFrom('name', 'status', 'budget', 'budget_unit'),
        async (campaigns, which, column) => {
          const ids = await createCampaigns(sandbox.url, token, account, campaigns);
          const listing = await user.run(['ads', 'campaigns', 'list', '--account', account, '--id', ids.join(','), '-o', 'csv']);
          const writes = sandbox.stats.writesById.size;
          const same = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-', '-o', 'ndjson'], { stdin: listing.stdout });
          expect(same.code, same.stderr).toBe(0);
          expect(
            same.stdout
              .trim()
              .split('\n')
              .map((l) => (JSON.parse(l) as { result: string }).result),
          ).toEqual(ids.map(() => 'unchanged'));
          expect(sandbox.stats.writesById.size).toBe(writes);

          const before = await listed(ids);
          const rows = parse<Record<string, string>>(listing.stdout, { columns: true });
          const row = rows[which % rows.length]!;
          const edits: Record<string, string> = {
            name: `${row.name} (edited)`,
            status: row.status === 'active' ? 'paused' : 'active',
            budget: oneMore(row.budget!),
            budget_unit: row.budget_unit === 'daily' ? 'weekly' : 'daily',
          };
          row[column] = edits[column]!;
          const edited = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-', '-o', 'ndjson'], {
            stdin: stringify(rows, { header: true }),
          });
          expect(edited.code, edited.stderr).toBe(0);
          const after = await listed(ids);
          for (const id of ids) {
            const expected = fields(before.get(id)!);
            if (id === row.campaign_id) {
              if (column === 'name') expected.name = edits.name;
              if (column === 'status')
                expected.configured_status = edits.status === 'active' ? 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE' : 'CAMPAIGN_CONFIGURED_STATUS_PAUSED';
              if (column === 'budget')
                expected.budget = {
                  ...expected.budget,
                  total: { ...expected.budget.total, amount_e5: String(BigInt(expected.budget.total.amount_e5) + 100_000n) },
                };
              if (column === 'budget_unit') expected.budget = { ...expected.budget, unit: `BUDGET_UNIT_${edits.budget_unit!.toUpperCase()}` };
            }
            expect(fields(after.get(id)!), `${column} of ${id}`).toEqual(expected);
          }
        },
      ),
      { numRuns: 12 },
    );
  });
});
