// Defaults a user sets once: `platform config set account`, PLATFORM_ACCOUNT, --account, in
// that order of precedence (flag > env > profile setting), against a real sandbox.
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let other: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  other = (await user.json<Array<{ ad_account_id: string }>>(['ads', 'accounts', 'list']))[1]!.ad_account_id;
});
afterAll(() => sandbox.close());

const campaignAccounts = async (u: TestUser, args: string[], env: Record<string, string> = {}) => {
  const result = await u.run(['ads', 'campaigns', 'list', '--limit', '1', '--json', ...args], { env });
  expect(result.code, result.stderr).toBe(0);
  return (JSON.parse(result.stdout) as Array<{ ad_account_id?: string; campaign_id: string }>)[0]!;
};

describe('the default ad account', () => {
  it('without any, an ads command names the three ways to give one (exit 2, one line)', async () => {
    const fresh = new TestUser(sandbox);
    const result = await fresh.run(['ads', 'campaigns', 'list']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe('no ad account: give --account ID, set PLATFORM_ACCOUNT, or run `platform config set account ID`\n');
    const named = await fresh.run(['ads', 'campaigns', 'list', '--profile', 'local']);
    expect(named.stderr).toContain('`platform config set account ID --profile local`');
  });

  it('config set / get / list / unset; the setting is used, PLATFORM_ACCOUNT beats it, --account beats both', async () => {
    const u = new TestUser(sandbox);
    expect((await u.run(['config', 'get', 'account'])).code).toBe(1);
    const set = await u.run(['config', 'set', 'account', account]);
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe(`Set account to ${account} for profile local.\n`);
    // Written through the store: 0600, and only the setting (no secret of the built-in profile copied in).
    expect(fs.statSync(u.configPath).mode & 0o777).toBe(0o600);
    expect(u.readConfig().profiles.local).toEqual({ account });
    expect(await u.run(['config', 'get', 'account'])).toEqual({ code: 0, stdout: `${account}\n`, stderr: '' });

    const fromConfig = await u.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--limit', '1']);
    const fromFlag = await u.json<Array<{ campaign_id: string }>>(['ads', 'campaigns', 'list', '--limit', '1', '--account', account]);
    expect(fromConfig).toEqual(fromFlag);
    const otherFirst = await campaignAccounts(u, ['--account', other]);
    // env over config; the flag over env.
    expect((await campaignAccounts(u, [], { PLATFORM_ACCOUNT: other })).campaign_id).toBe(otherFirst.campaign_id);
    expect((await campaignAccounts(u, ['--account', account], { PLATFORM_ACCOUNT: other })).campaign_id).toBe(fromFlag[0]!.campaign_id);

    // The settings of this test (the URL settings are test/in-process/cli/config-urls.test.ts's).
    const settings = async (env: Record<string, string> = {}) =>
      (await u.json<Array<{ key: string }>>(['config', 'list'], { env })).filter((row) => ['account', 'ca_file', 'secure_storage'].includes(row.key));
    const noCaFile = { key: 'ca_file', value: null, source: null, profile: 'local' };
    const noSecureStorage = { key: 'secure_storage', value: null, source: null, profile: 'local' };
    expect(await settings()).toEqual([{ key: 'account', value: account, source: 'config', profile: 'local' }, noCaFile, noSecureStorage]);
    expect(await settings({ PLATFORM_ACCOUNT: other })).toEqual([
      { key: 'account', value: other, source: 'env PLATFORM_ACCOUNT', profile: 'local' },
      noCaFile,
      noSecureStorage,
    ]);

    const unset = await u.run(['config', 'unset', 'account']);
    expect(unset.code, unset.stderr).toBe(0);
    expect((await u.run(['ads', 'campaigns', 'list'])).code).toBe(2);
    expect(await settings()).toEqual([{ key: 'account', value: null, source: null, profile: 'local' }, noCaFile, noSecureStorage]);
  });

  it('is kept per profile: --profile picks which; an unknown profile is refused, not created', async () => {
    const u = new TestUser(sandbox);
    u.writeConfig({ profiles: { work: { base_url: sandbox.url, client_id: 'sandbox-demo-client' } } });
    expect((await u.run(['config', 'set', 'account', other, '--profile', 'work'])).code).toBe(0);
    expect((await u.run(['config', 'get', 'account'])).code).toBe(1);
    expect((await u.run(['config', 'get', 'account', '--profile', 'work'])).stdout).toBe(`${other}\n`);
    const typo = await u.run(['config', 'set', 'account', other, '--profile', 'wrok']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/^no profile named wrok; the profiles are local, work\n$/);
    expect(Object.keys(u.readConfig().profiles)).toEqual(['work']);
  });

  it('refuses a value that cannot be an id, from config set and from PLATFORM_ACCOUNT', async () => {
    const u = new TestUser(sandbox);
    const bad = await u.run(['config', 'set', 'account', '..']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toBe('account: the id ".." is not an id\n');
    const env = await u.run(['ads', 'campaigns', 'list'], { env: { PLATFORM_ACCOUNT: '..' } });
    expect(env.code).toBe(2);
    expect(env.stderr).toBe('the ad account from PLATFORM_ACCOUNT: the id ".." is not an id\n');
  });

  it('an error about the account says where a default came from', async () => {
    const u = new TestUser(sandbox);
    const env = await u.run(['ads', 'campaigns', 'list'], { env: { PLATFORM_ACCOUNT: 'no-such-account' } });
    expect(env.code).toBe(1);
    expect(env.stderr).toMatch(/^NotFound: ad account no-such-account \(from PLATFORM_ACCOUNT\) not found/);
    await u.run(['config', 'set', 'account', 'no-such-account']);
    const config = await u.run(['ads', 'stores', 'list']);
    expect(config.stderr).toMatch(/^NotFound: ad account no-such-account \(from the config of profile local\) not found/);
    // Given as a flag, the API's words stand as they are.
    const flag = await u.run(['ads', 'stores', 'list', '--account', 'no-such-account']);
    expect(flag.stderr).toMatch(/^NotFound: ad account no-such-account not found/);
  });

  it("--account's help says where its default comes from; reports and products use the default too", async () => {
    const help = await user.run(['ads', 'campaigns', 'list', '--help']);
    expect(help.stdout.replace(/\s+/g, ' ')).toContain("default: $PLATFORM_ACCOUNT, else the profile's `platform config set account ID`");
    const u = new TestUser(sandbox, { PLATFORM_ACCOUNT: account });
    expect((await u.run(['ads', 'products', 'list', '--limit', '1'])).code).toBe(0);
    expect((await u.run(['ads', 'reports', 'sync', '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'day_of,clicks', '--last', '2d'])).code).toBe(0);
  });
});

describe('the ca_file setting', () => {
  it('config set ca_file stores an absolute path the next command trusts, and refuses a relative one', async () => {
    const fresh = new TestUser(sandbox);
    const relative = await fresh.run(['config', 'set', 'ca_file', 'ca.pem']);
    expect(relative.code).toBe(2);
    expect(relative.stderr).toMatch(/ca_file: give the absolute path/);

    const missing = `${fresh.configDir}/no-such-ca.pem`;
    expect((await fresh.run(['config', 'set', 'ca_file', missing])).code).toBe(0);
    expect((await fresh.run(['config', 'get', 'ca_file'])).stdout.trim()).toBe(missing);
    // The next API command reads it, and says where the path came from.
    const used = await fresh.run(['ads', 'accounts', 'list']);
    expect(used.code).toBe(2);
    expect(used.stderr).toContain(`the profile's ca_file ${missing}`);
    expect((await fresh.run(['config', 'unset', 'ca_file'])).code).toBe(0);
    expect((await fresh.run(['ads', 'accounts', 'list'])).code).toBe(0);
  });
});
