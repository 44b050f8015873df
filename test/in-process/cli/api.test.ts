// `platform api`: authenticated calls to any path of the sandbox, as `gh api` makes them.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxWithUser, tempDir, TestUser } from '../../helpers/cli.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;

interface Campaign {
  campaign_id: string;
  name: string;
  configured_status: string;
}

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
});
afterAll(() => sandbox.close());

describe('platform api', () => {
  it('GETs a path with the profile token and prints the raw body when piped', async () => {
    const result = await user.run(['api', '/v1/ads/ad-accounts']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    const body = JSON.parse(result.stdout) as { ad_accounts: Array<{ ad_account_id: string }> };
    expect(body.ad_accounts.map((a) => a.ad_account_id)).toContain(account);
    // Raw: the exact bytes of the response, not re-indented.
    // Raw bytes plus the final newline every line of output ends with.
    expect(result.stdout.split('\n')).toHaveLength(2);
    expect(result.stdout.endsWith('}\n')).toBe(true);
  });

  it('pretty-prints JSON on a terminal, and takes the path without a leading slash', async () => {
    const result = await user.run(['api', 'v1/ads/ad-accounts'], { tty: true });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^\{\n {2}"ad_accounts": \[\n/);
  });

  it('sends fields as query parameters for GET, typed with -F', async () => {
    const result = await user.run(['api', 'GET', `/v1/ads/${account}/campaigns`, '-F', 'page_limit=3']);
    expect(result.code).toBe(0);
    const body = JSON.parse(result.stdout) as { campaigns: Campaign[]; next_page_token?: { value: string } };
    expect(body.campaigns).toHaveLength(3);
    expect(body.next_page_token?.value).toBeTruthy();
  });

  it('POSTs fields as a JSON body by default, and a list of objects with name[][key]', async () => {
    const result = await user.run([
      'api',
      `/v1/ads/${account}/campaigns`,
      '-f',
      'campaigns[][name]=Made by api',
      '-f',
      'campaigns[][configured_status]=CAMPAIGN_CONFIGURED_STATUS_PAUSED',
      '-f',
      'campaigns[][budget][unit]=BUDGET_UNIT_DAILY',
      '-f',
      'campaigns[][budget][total][amount_e5]=1000000',
      '-f',
      'campaigns[][budget][total][currency_code]=USD',
    ]);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const id = (JSON.parse(result.stdout) as { results: Array<{ success: { id: string } }> }).results[0]!.success.id;
    const created = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--id', id]);
    expect(created[0]).toMatchObject({ name: 'Made by api', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_PAUSED' });
  });

  it('sends --input as the body, with an explicit method', async () => {
    const [campaign] = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--limit', '1']);
    const file = path.join(tempDir(), 'patch.json');
    fs.writeFileSync(file, JSON.stringify({ campaigns: [{ campaign_id: campaign!.campaign_id, name: 'Renamed by api --input' }] }));
    const result = await user.run(['api', 'PATCH', `/v1/ads/${account}/campaigns`, '--input', file]);
    expect(result.code).toBe(0);
    const after = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--id', campaign!.campaign_id]);
    expect(after[0]!.name).toBe('Renamed by api --input');

    const fromStdin = await user.run(['api', 'patch', `/v1/ads/${account}/campaigns`, '--input', '-'], {
      stdin: JSON.stringify({ campaigns: [{ campaign_id: campaign!.campaign_id, name: 'Renamed from stdin' }] }),
    });
    expect(fromStdin.code).toBe(0);
    const again = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--id', campaign!.campaign_id]);
    expect(again[0]!.name).toBe('Renamed from stdin');
  });

  it('--paginate prints every item of every page as one JSON array', async () => {
    const all = await user.json<Campaign[]>(['ads', 'campaigns', 'list', '--account', account, '--all']);
    const result = await user.run(['api', `/v1/ads/${account}/campaigns`, '--paginate', '-F', 'page_limit=7']);
    expect(result.code).toBe(0);
    const items = JSON.parse(result.stdout) as Campaign[];
    expect(all.length).toBeGreaterThan(7 * 2);
    expect(items.map((c) => c.campaign_id)).toEqual(all.map((c) => c.campaign_id));
  });

  it('--paginate -o ndjson prints one item per line', async () => {
    const result = await user.run(['api', `/v1/ads/${account}/campaigns`, '--paginate', '-F', 'page_limit=7', '-o', 'ndjson']);
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.length).toBeGreaterThan(14);
    for (const line of lines) expect(JSON.parse(line)).toHaveProperty('campaign_id');
  });

  it('-i prints the status line and headers before the body', async () => {
    const result = await user.run(['api', '/v1/ads/ad-accounts', '-i']);
    expect(result.code).toBe(0);
    const [head, body] = result.stdout.split('\n\n');
    expect(head!.split('\n')[0]).toBe('HTTP/1.1 200 OK');
    expect(head).toMatch(/^content-type: application\/json/m);
    expect(JSON.parse(body!)).toHaveProperty('ad_accounts');
  });

  it('a non-2xx answer prints its body, and its error line on stderr, and exits 1', async () => {
    const result = await user.run(['api', '/v1/ads/no-such-account/campaigns']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ code: 'NotFound' });
    expect(result.stderr.trim()).toMatch(/^NotFound: .*no-such-account/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('gets a new token once after a 401, like every command', async () => {
    const fresh = new TestUser(sandbox);
    expect((await fresh.run(['api', '/v1/ads/ad-accounts'])).code).toBe(0);
    sandbox.revokeTokens();
    const result = await fresh.run(['api', '/v1/ads/ad-accounts']);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
  });

  it('exits 4 when the credentials are refused', async () => {
    const result = await user.run(['api', '/v1/ads/ad-accounts'], { env: { PLATFORM_TOKEN: 'not-a-token' } });
    expect(result.code).toBe(4);
    expect(result.stderr).toMatch(/PLATFORM_TOKEN/);
  });

  it('refuses to send the token to another host, and bad fields, methods and headers, with exit 2', async () => {
    for (const args of [
      ['api', 'https://example.com/v1/ads/ad-accounts'],
      ['api', 'FETCH', '/v1/ads/ad-accounts'],
      ['api', '/v1/ads/ad-accounts', '-f', 'novalue'],
      ['api', '/v1/ads/ad-accounts', '-H', 'no colon'],
      ['api', 'POST', '/v1/ads/ad-accounts', '--paginate'],
      ['api', '/v1/x', '-F', 'a=@/no/such/file'],
    ]) {
      const result = await user.run(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stdout).toBe('');
    }
  });
});
