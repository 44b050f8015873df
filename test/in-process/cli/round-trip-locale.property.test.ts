// The round trip of a German Excel as a property (fast-check): any campaign list written with
// `-o csv --delimiter ';' --decimal-comma` and read back with `patch --from-csv --delimiter ';'
// --decimal-comma` reports every row unchanged and writes nothing. Budgets take any amount_e5
// (up to five decimals, thousands and more); names any text, the separator and quotes too.
import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';
import { campaignArbs, createCampaigns } from '../../helpers/campaign-arbs.js';
import { getToken } from '../../helpers/sandbox.js';
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

/** Any amount_e5 from 0.00001 to ten billion: every digit of it matters. */
const anyAmount = fc.bigInt({ min: 1n, max: 10n ** 15n }).map(String);
/** Any name, and names a spreadsheet's dialect could mistake: the separator, quotes, a decimal with a comma. */
const anyName = fc.oneof(campaignArbs.name, fc.constantFrom('Müller; Söhne', 'a,b;c', '"Zitat"; x', '1.234,56', '12,5', '; ; ;'));
const campaignArb = fc.record({ ...campaignArbs, name: anyName, amount: anyAmount });
const DIALECT = ['--delimiter', ';', '--decimal-comma'];

/** amount_e5 as the decimal a German spreadsheet shows: 123450000 -> 1234,50. */
function withComma(amountE5: string): string {
  const e5 = BigInt(amountE5);
  return `${e5 / 100_000n},${(e5 % 100_000n).toString().padStart(5, '0').replace(/0+$/, '').padEnd(2, '0')}`;
}

describe("list -o csv --delimiter ';' --decimal-comma -> patch --from-csv with the same two", () => {
  it('reports every row unchanged and writes nothing', { timeout: scaled(60_000) }, async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(campaignArb, { minLength: 1, maxLength: 4 }), async (campaigns) => {
        const ids = await createCampaigns(sandbox.url, token, account, campaigns);
        const listing = await user.run(['ads', 'campaigns', 'list', '--account', account, '--id', ids.join(','), '-o', 'csv', ...DIALECT]);
        expect(listing.code, listing.stderr).toBe(0);
        // The spreadsheet's dialect indeed: a BOM, semicolons, budgets with a comma and no point.
        expect(listing.stdout.startsWith('\uFEFFcampaign_id;name;status;budget;currency;budget_unit\n')).toBe(true);
        const rows = parse<Record<string, string>>(listing.stdout, { bom: true, columns: true, delimiter: ';' });
        const budgets = new Map(rows.map((r) => [r.campaign_id, r.budget]));
        expect(ids.map((id) => budgets.get(id))).toEqual(campaigns.map((c) => withComma(c.amount)));
        const writes = sandbox.stats.writesById.size;
        const same = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', '-', ...DIALECT, '-o', 'ndjson'], {
          stdin: listing.stdout,
        });
        expect(same.code, same.stderr).toBe(0);
        expect(
          same.stdout
            .trim()
            .split('\n')
            .map((l) => (JSON.parse(l) as { result: string }).result),
        ).toEqual(ids.map(() => 'unchanged'));
        expect(sandbox.stats.writesById.size).toBe(writes);
      }),
      { numRuns: 10 },
    );
  });
});
