// A patch of a few rows reads the current state in as few requests as it can: the
// collection's first page (all of a small account's campaigns), then one request per id only
// for rows not on it. Under a rate limit every read spends the quota the writes need.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, type TestUser } from '../../helpers/cli.js';
import type { Campaign, Result } from '../../helpers/ads-rows.js';
import { scaled } from '../../helpers/time-scale.js';

/** More than one page of 2,000: some rows' campaigns are not on the first. */
const CAMPAIGNS = 2_300;

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let campaigns: Campaign[];
const dir = tempDir();

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser({ campaigns: CAMPAIGNS }));
  campaigns = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--all']);
  expect(campaigns).toHaveLength(CAMPAIGNS);
}, scaled(30_000));
afterAll(() => sandbox.close());

const reads = () => sandbox.stats.requests.filter((r) => r.method === 'GET' && r.path === `/v1/ads/${account}/campaigns`).length;

async function patch(name: string, rows: string[][], exit = 0): Promise<Result[]> {
  const file = path.join(dir, name);
  fs.writeFileSync(file, `campaign_id,name\n${rows.map((r) => r.join(',')).join('\n')}\n`);
  const result = await user.run(['ads', 'campaigns', 'patch', '--account', account, '--from-csv', file, '-o', 'json']);
  expect(result.code, result.stderr).toBe(exit);
  return JSON.parse(result.stdout) as Result[];
}

describe('a few rows read the current state', () => {
  it('from the first page, in one request, when their campaigns are on it', async () => {
    const rows = campaigns.slice(0, 40).map((c, i) => [c.campaign_id, `First page ${i}`]);
    sandbox.resetStats();
    const results = await patch('first-page.csv', rows);
    expect(reads()).toBe(1);
    expect(results.map((r) => r.result)).toEqual(rows.map(() => 'ok'));
    const now = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--limit', '40']);
    expect(now.map((c) => c.name)).toEqual(rows.map(([, name]) => name));
  });

  it('one by one for those past it; an id given twice is applied in order', async () => {
    const later = campaigns.slice(-3);
    const rows = [
      [campaigns[0]!.campaign_id, 'Mixed 0'],
      ...later.map((c, i) => [c.campaign_id, `Past the first page ${i}`]),
      [campaigns[0]!.campaign_id, 'Mixed 0 again'],
    ];
    sandbox.resetStats();
    const results = await patch('past-first-page.csv', rows);
    // The first page, then each of the three campaigns past it.
    expect(reads()).toBe(1 + later.length);
    expect(results.map((r) => [r.id, r.result])).toEqual(rows.map(([id]) => [id, 'ok']));
    const byId = new Map((await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--all'])).map((c) => [c.campaign_id, c.name]));
    expect(rows.slice(1).map(([id]) => byId.get(id!))).toEqual([...later.map((_, i) => `Past the first page ${i}`), 'Mixed 0 again']);
  });

  it('a later row of a campaign that puts back what an earlier row changed is sent, not judged unchanged by the values read', async () => {
    const [target] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--id', campaigns[2]!.campaign_id]);
    const rows = [
      [target!.campaign_id, 'Changed for a moment'],
      [target!.campaign_id, target!.name],
    ];
    const results = await patch('back-again.csv', rows);
    expect(results.map((r) => [r.line, r.result])).toEqual([
      [2, 'ok'],
      [3, 'ok'],
    ]);
    const [now] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--id', target!.campaign_id]);
    expect(now!.name).toBe(target!.name);
  });

  it('an id that is not in the account is not found (exit 1), and the others are applied', async () => {
    sandbox.resetStats();
    const results = await patch(
      'missing.csv',
      [
        [campaigns[1]!.campaign_id, 'Found'],
        ['00000000-0000-4000-8000-000000000000', 'Missing'],
      ],
      1,
    );
    // Not on the first page, and the account has more: asked for by id.
    expect(reads()).toBe(2);
    expect(results.map((r) => r.result)).toEqual(['ok', 'failed']);
    expect(results[1]!.error_message).toMatch(/not found/i);
  });
});
