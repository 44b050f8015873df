// A patch that changes only a targeting setting (negation, operator) must send the whole
// targeting with that setting changed: the API replaces targeting whole, and the row is
// compared with the current ad group to decide "unchanged". Dropping the row's setting in
// the merge made --negate-targeting report "unchanged", exit 0 and send nothing.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, type TestUser } from '../../helpers/cli.js';
import type { Result } from '../../helpers/ads-rows.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let campaignId: string;
let store: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  const [created] = await user.json<Result[]>(['ads', 'campaigns', 'create', '--account', account, '--name', 'Targeting settings']);
  campaignId = created!.id;
  const [first] = await user.json<Array<{ id: string }>>(['ads', 'stores', 'list', '--account', account, '--limit', '1']);
  store = first!.id;
});
afterAll(() => sandbox.close());

/** A new ad group with one keyword criterion, not negated, criteria combined with AND. */
async function adGroup(name: string): Promise<string> {
  const [group] = await user.json<Result[]>([
    'ads',
    'ad-groups',
    'create',
    '--account',
    account,
    '--campaign',
    campaignId,
    '--name',
    name,
    '--ad-product',
    'search',
    '--start',
    '2026-12-01T00:00:00Z',
    '--keywords',
    'pizza,pasta',
    '--store-ids',
    store,
  ]);
  expect(group!.result).toBe('ok');
  return group!.id;
}

async function targetingOf(id: string): Promise<Record<string, unknown>> {
  const [group] = await user.json<Array<{ targeting: Record<string, unknown> }>>([
    'ads',
    'ad-groups',
    'list',
    '--account',
    account,
    '--campaign',
    campaignId,
    '--id',
    id,
  ]);
  return group!.targeting;
}

const keywords = [{ keyword_targeting: { keywords: ['pizza', 'pasta'], match_type: 'MATCH_TYPE_EXACT' } }];
const patch = (id: string, ...flags: string[]) => ['ads', 'ad-groups', 'patch', '--account', account, '--campaign', campaignId, '--ad-group-id', id, ...flags];

describe('patching a targeting setting alone', () => {
  it('--negate-targeting negates the targeting, keeping its criteria and operator; again, it is unchanged and not sent', async () => {
    const id = await adGroup('Negate me');
    expect(await targetingOf(id)).toEqual({ negation: false, operator: 'AND', criteria: keywords });
    const writes = sandbox.stats.writesById.get(id) ?? 0;

    const [first] = await user.json<Result[]>(patch(id, '--negate-targeting'));
    expect(first).toMatchObject({ id, result: 'ok' });
    expect(await targetingOf(id)).toEqual({ negation: true, operator: 'AND', criteria: keywords });
    expect(sandbox.stats.writesById.get(id)).toBe(writes + 1);

    const [again] = await user.json<Result[]>(patch(id, '--negate-targeting'));
    expect(again).toMatchObject({ id, result: 'unchanged' });
    expect(sandbox.stats.writesById.get(id)).toBe(writes + 1);
  });

  it('--target-operator OR changes only the operator', async () => {
    const id = await adGroup('Either keyword');
    const [result] = await user.json<Result[]>(patch(id, '--target-operator', 'OR'));
    expect(result).toMatchObject({ id, result: 'ok' });
    expect(await targetingOf(id)).toEqual({ negation: false, operator: 'OR', criteria: keywords });
  });

  it('CSV columns targeting.negation and targeting.operator change both, row by row', async () => {
    const [negated, ored] = [await adGroup('CSV negated'), await adGroup('CSV ored')];
    const file = path.join(tempDir(), 'targeting.csv');
    fs.writeFileSync(file, `ad_group_id,targeting.negation,targeting.operator\n${negated},true,AND\n${ored},false,OR\n`);
    const result = await user.run(['ads', 'ad-groups', 'patch', '--account', account, '--campaign', campaignId, '--from-csv', file, '--json']);
    expect(result.code).toBe(0);
    expect((JSON.parse(result.stdout) as Result[]).map((row) => [row.id, row.result])).toEqual([
      [negated, 'ok'],
      [ored, 'ok'],
    ]);
    expect(await targetingOf(negated)).toEqual({ negation: true, operator: 'AND', criteria: keywords });
    expect(await targetingOf(ored)).toEqual({ negation: false, operator: 'OR', criteria: keywords });
  });
});
