// One resource's id as the argument or as its flag, alike for campaigns, ad groups and ads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let campaign: string;
let adGroup: string;
let ad: string;

beforeAll(async () => {
  let account: string;
  ({ sandbox, user, account } = await sandboxWithUser());
  user = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
  // A campaign with an ad group that has an ad.
  for (const c of await user.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--all'])) {
    const groups = await user.json<Array<{ ad_group_id: string }>>(['ads', 'ad-groups', 'list', '--campaign', c.campaign_id]);
    for (const g of groups) {
      const ads = await user.json<Array<{ ad_id: string }>>(['ads', 'ads', 'list', '--campaign', c.campaign_id, '--ad-group', g.ad_group_id]);
      if (ads.length) [campaign, adGroup, ad] = [c.campaign_id, g.ad_group_id, ads[0]!.ad_id];
      if (ad) break;
    }
    if (ad) break;
  }
  expect(ad).toBeDefined();
});
afterAll(() => sandbox.close());

const cases = () => [
  { noun: 'campaign', path: ['campaigns'], flag: '--campaign-id', id: campaign, scope: [] as string[], field: 'campaign_id' },
  { noun: 'ad group', path: ['ad-groups'], flag: '--ad-group-id', id: adGroup, scope: ['--campaign', campaign], field: 'ad_group_id' },
  { noun: 'ad', path: ['ads'], flag: '--ad-id', id: ad, scope: ['--campaign', campaign, '--ad-group', adGroup], field: 'ad_id' },
];

describe('the id of one resource: argument or flag', () => {
  it.each(['campaign', 'ad group', 'ad'])('%s: view and patch take it either way; both must agree', async (noun) => {
    const c = cases().find((x) => x.noun === noun)!;
    const byArg = await user.json<Record<string, unknown>>(['ads', ...c.path, 'view', c.id, ...c.scope]);
    const byFlag = await user.json<Record<string, unknown>>(['ads', ...c.path, 'view', c.flag, c.id, ...c.scope]);
    expect(byArg[c.field]).toBe(c.id);
    expect(byFlag).toEqual(byArg);
    expect(await user.json(['ads', ...c.path, 'view', c.id, c.flag, c.id, ...c.scope])).toEqual(byArg);

    const renamed = await user.run(['ads', ...c.path, 'patch', c.id, ...c.scope, '--name', `Renamed ${noun}`], { tty: true, env: { NO_COLOR: '1' } });
    expect(renamed.code, renamed.stderr).toBe(0);
    expect(renamed.stdout).toBe(`Updated ${noun} ${c.id} "Renamed ${noun}"\n`);
    const byFlagPatch = await user.run(['ads', ...c.path, 'patch', c.flag, c.id, ...c.scope, '--name', `Again ${noun}`], { tty: true });
    expect(byFlagPatch.code, byFlagPatch.stderr).toBe(0);

    for (const command of ['view', 'patch']) {
      const writes = sandbox.stats.writesById.get(c.id);
      const both = await user.run(['ads', ...c.path, command, c.id, c.flag, 'other-id', ...c.scope, ...(command === 'patch' ? ['--name', 'x'] : [])]);
      expect(both.code).toBe(2);
      expect(both.stderr).toBe(`the id argument ${c.id} and ${c.flag} other-id differ: give one\n`);
      expect(sandbox.stats.writesById.get(c.id)).toBe(writes);
    }
    const neither = await user.run(['ads', ...c.path, 'view', ...c.scope]);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toMatch(new RegExp(`^give the ${noun} id: .*\\(or ${c.flag} ID\\)\\n$`));
  });

  it('an id argument with --from-csv is refused like the flag', async () => {
    const result = await user.run(['ads', 'campaigns', 'patch', campaign, '--from-csv', '-'], { stdin: 'campaign_id,name\nx,y\n' });
    expect(result.code).toBe(2);
    expect(result.stderr).toBe('--from-csv cannot be combined with an id argument\n');
  });
});
