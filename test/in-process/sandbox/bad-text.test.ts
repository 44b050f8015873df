// The sandbox refuses what the CLI refuses: text the API could not store faithfully (NUL and
// other control characters, lone surrogates, bytes that are not UTF-8) and amounts past the
// API's int64. Raw HTTP: the CLI would refuse these before sending.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { api, getToken } from '../../helpers/sandbox.js';

let sandbox: Sandbox;
let token: string;
let account: string;
let campaign: string;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  token = await getToken(sandbox.url);
  account = ((await api(sandbox.url, token, 'GET', '/v1/ads/ad-accounts')).body as { ad_accounts: Array<{ ad_account_id: string }> }).ad_accounts[0]!
    .ad_account_id;
  campaign = ((await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns`)).body as { campaigns: Array<{ campaign_id: string }> }).campaigns[0]!
    .campaign_id;
});
afterAll(() => sandbox.close());

const active = 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE';
const budget = (amount_e5: string) => ({ unit: 'BUDGET_UNIT_DAILY', total: { amount_e5, currency_code: 'USD' } });

/** POSTs raw bytes as a JSON body. */
async function postRaw(path: string, body: Buffer): Promise<{ status: number; body: { code: string; message: string } }> {
  const res = await fetch(`${sandbox.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: res.status, body: (await res.json()) as { code: string; message: string } };
}

describe('the sandbox refuses text it cannot store', () => {
  // Written as JSON text, escapes and all: "\ud800" is how a lone surrogate arrives.
  it.each([
    ['a NUL', '"a\\u0000b"', /campaigns\[0\]\.name: contains the control character U\+0000 at character 2/],
    ['an escape', '"a\\u001b[2Jb"', /campaigns\[0\]\.name: contains the control character U\+001B/],
    ['a BEL', '"a\\u0007b"', /campaigns\[0\]\.name: contains the control character U\+0007/],
    ['DEL', '"a\\u007fb"', /campaigns\[0\]\.name: contains the control character U\+007F/],
    ['a C1 CSI', '"a\\u009bb"', /campaigns\[0\]\.name: contains the control character U\+009B/],
    ['a lone high surrogate', '"a\\ud800"', /campaigns\[0\]\.name: contains a lone surrogate U\+D800 at character 2/],
    ['a lone low surrogate', '"\\udc00b"', /campaigns\[0\]\.name: contains a lone surrogate U\+DC00 at character 1/],
  ])('a name with %s: 400 BadRequest naming the field, nothing created', async (_what, name, message) => {
    const before = (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=2000`)).body.campaigns.length as number;
    const result = await postRaw(`/v1/ads/${account}/campaigns`, Buffer.from(`{"campaigns":[{"name":${name},"configured_status":"${active}"}]}`));
    expect(result.status).toBe(400);
    expect(result.body.code).toBe('BadRequest');
    expect(result.body.message).toMatch(message);
    expect((await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=2000`)).body.campaigns).toHaveLength(before);
  });

  it('tabs, line breaks and surrogate pairs are text: the name is stored as sent', async () => {
    const name = 'Tab\there\r\nand a line 😀';
    const created = await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, { campaigns: [{ name, configured_status: active }] });
    expect(created.status).toBe(200);
    const id = created.body.results[0].success.id as string;
    const listed = (await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?page_limit=2000`)).body.campaigns as Array<{
      campaign_id: string;
      name: string;
    }>;
    expect(listed.find((c) => c.campaign_id === id)?.name).toBe(name);
  });

  it('a body that is not UTF-8 (a Latin-1 é) is 400, not a name with U+FFFD', async () => {
    const latin1 = Buffer.concat([Buffer.from(`{"campaigns":[{"name":"Caf`), Buffer.from([0xe9]), Buffer.from(`","configured_status":"${active}"}]}`)]);
    const result = await postRaw(`/v1/ads/${account}/campaigns`, latin1);
    expect(result.status).toBe(400);
    expect(result.body).toEqual({ code: 'BadRequest', message: 'body is not valid UTF-8' });
  });

  it('keywords are text too', async () => {
    const result = await postRaw(
      `/v1/ads/${account}/campaigns/${campaign}/ad-groups`,
      Buffer.from(
        JSON.stringify({
          ad_groups: [
            {
              name: 'g',
              ad_product: 'SPONSORED_LISTING',
              configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE',
              schedule: { start_time: '2026-01-01T00:00:00Z' },
              bidding: { auto: {} },
              targeting: { negation: false, operator: 'AND', criteria: [{ keyword_targeting: { keywords: ['ok', 'bad\u0000'], match_type: 'EXACT' } }] },
              ad_subjects: { stores: { store_ids: ['s-1'] } },
            },
          ],
        }),
      ),
    );
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/ad_groups\[0\]\.targeting\.criteria\[0\]\.keyword_targeting\.keywords\[1\]: contains the control character U\+0000/);
  });
});

describe('the sandbox holds amount_e5 to the API int64', () => {
  it.each([
    ['a 400-digit amount', '9'.repeat(400), 400],
    ['int64 max + 1', '9223372036854775808', 400],
    ['int64 max', '9223372036854775807', 200],
  ])('%s', async (_what, amount, status) => {
    const result = await api(sandbox.url, token, 'POST', `/v1/ads/${account}/campaigns`, {
      campaigns: [{ name: `budget ${amount.length}`, configured_status: active, budget: budget(amount) }],
    });
    expect(result.status).toBe(status);
    if (status === 400) expect(result.body.message).toMatch(/campaigns\[0\]\.budget\.total\.amount_e5: must be at most 9223372036854775807 \(an int64\)/);
  });

  it('in a patch too', async () => {
    const result = await api(sandbox.url, token, 'PATCH', `/v1/ads/${account}/campaigns`, {
      campaigns: [{ campaign_id: campaign, budget: budget('1'.repeat(20)) }],
    });
    expect(result.status).toBe(400);
    expect(result.body.message).toMatch(/amount_e5: must be at most/);
  });
});
