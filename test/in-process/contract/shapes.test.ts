// Shapes the real API expects, as the public OpenAPI and the recorded rider service have
// them, checked on what the CLI sends (the contract gate's recording) and over raw HTTP.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { OpenApiContract } from '../../helpers/contract/openapi.js';
import { recorded } from '../../helpers/contract/recorder.js';
import { sandboxWithUser, type TestUser } from '../../helpers/cli.js';
import { authorizeUrl, openAuthorize } from '../../helpers/oauth.js';
import { api, getToken } from '../../helpers/sandbox.js';
import { SF, userToken } from '../../helpers/rider.js';

let sandbox: Sandbox;
let user: TestUser;
let account: string;
let token: string;

beforeAll(async () => {
  ({ sandbox, user, account } = await sandboxWithUser());
  token = await getToken(sandbox.url);
});
afterAll(() => sandbox.close());

const campaignsOf = async () =>
  user.json<Array<{ campaign_id: string; ad_groups: Array<{ ad_group_id: string }> }>>(['ads', 'campaigns', 'list', '--account', account]);

describe('the contract gate itself', () => {
  const contract = new OpenApiContract();
  const base = { test: 'a unit test', status: 200, responseContentType: 'application/json' };

  it('passes a conforming exchange and names the operation, the test and the path of each violation', () => {
    expect(contract.violations({ ...base, method: 'GET', url: `/v1/ads/${'a'}/campaigns?campaign_id=x`, responseBody: '{"campaigns":[]}' })).toEqual([]);
    const repeated = contract.violations({ ...base, method: 'GET', url: '/v1/ads/a/campaigns?campaign_id=x&campaign_id=y', responseBody: '{"campaigns":[]}' });
    expect(repeated).toEqual([
      expect.stringMatching(/^get-campaigns \(GET \/v1\/ads\/a\/campaigns\) in "a unit test": query parameter campaign_id is repeated/) as string,
    ]);
    const matchType = contract.violations({
      ...base,
      method: 'PATCH',
      url: '/v1/ads/a/campaigns/c/ad-groups',
      requestBody: JSON.stringify({
        ad_groups: [
          {
            ad_group_id: 'g',
            targeting: { negation: false, operator: 'AND', criteria: [{ keyword_targeting: { keywords: ['k'], match_type: 'MATCH_TYPE_EXACT' } }] },
          },
        ],
      }),
    });
    expect(
      matchType.some((v) => /update-ad-groups .* request body at \/ad_groups\/0\/targeting\/criteria\/0\/keyword_targeting\/match_type/.test(v)),
      matchType.join('\n'),
    ).toBe(true);
    const response = contract.violations({ ...base, method: 'GET', url: '/v1/ads/a/campaigns', responseBody: '{"campaigns":"nope"}' });
    expect(response).toEqual([expect.stringMatching(/get-campaigns .*response 200 at \/campaigns: must be array/) as string]);
  });

  it('refuses a field the OpenAPI does not declare, where an overlay does not declare it deliberately', () => {
    const adGroups = (group: Record<string, unknown>) =>
      contract.violations({ ...base, method: 'GET', url: '/v1/ads/a/campaigns/c/ad-groups', responseBody: JSON.stringify({ ad_groups: [group] }) });
    const group = { ad_group_id: 'g', campaign_id: 'c', name: 'n', ad_product: 'SPONSORED_LISTING', configured_status: 'AD_GROUP_CONFIGURED_STATUS_ACTIVE' };
    expect(adGroups(group)).toEqual([]);
    // What the sandbox sent before (issue #44): neither spec 2.5 nor the OpenAPI has them.
    expect(adGroups({ ...group, created_at: '2025-01-06T10:20:16Z' })).toEqual([
      expect.stringMatching(/get-ad-groups .*response 200 at \/ad_groups\/0: must NOT have unevaluated properties/) as string,
    ]);
    // A campaign's ad group summaries carry ad_product (spec 2.4a; overlay e).
    const summary = { ad_group_id: 'g', name: 'n', ad_product: 'SPONSORED_SEARCH', configured_status: 'x', effective_status: 'y', permissions: ['READ'] };
    const campaign = { campaign_id: 'c', name: 'n', configured_status: 'CAMPAIGN_CONFIGURED_STATUS_ACTIVE', ad_groups: [summary] };
    expect(contract.violations({ ...base, method: 'GET', url: '/v1/ads/a/campaigns', responseBody: JSON.stringify({ campaigns: [campaign] }) })).toEqual([]);
  });
});

describe('request shapes', () => {
  it('--match-type exact sends EXACT (the input enum); responses keep MATCH_TYPE_EXACT', async () => {
    const [campaign] = await campaignsOf();
    const stores = await user.json<Array<{ id: string }>>(['ads', 'stores', 'list', '--account', account]);
    const from = recorded.length;
    const created = await user.run([
      'ads',
      'ad-groups',
      'create',
      '--account',
      account,
      '--campaign',
      campaign!.campaign_id,
      '--name',
      'Match',
      '--store-ids',
      stores[0]!.id,
      '--keywords',
      'pizza',
      '--match-type',
      'exact',
      '--json',
    ]);
    expect(created.code, created.stderr).toBe(0);
    const sent = recorded.slice(from).find((e) => e.method === 'POST' && e.url.endsWith('/ad-groups'))!;
    expect(JSON.parse(sent.requestBody!)).toMatchObject({
      ad_groups: [{ targeting: { criteria: [{ keyword_targeting: { keywords: ['pizza'], match_type: 'EXACT' } }] } }],
    });
    const id = (JSON.parse(created.stdout) as Array<{ id: string }>)[0]!.id;
    const listed = await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns/${campaign!.campaign_id}/ad-groups?ad_group_id=${id}`);
    expect(listed.body.ad_groups[0].targeting.criteria[0].keyword_targeting.match_type).toBe('MATCH_TYPE_EXACT');
  });

  it('--id a,b sends one request per id, and prints the rows in the order given', async () => {
    const [a, b] = await campaignsOf();
    const from = recorded.length;
    const listed = await user.json<Array<{ campaign_id: string }>>([
      'ads',
      'campaigns',
      'list',
      '--account',
      account,
      '--id',
      `${b!.campaign_id},${a!.campaign_id}`,
    ]);
    expect(listed.map((c) => c.campaign_id)).toEqual([b!.campaign_id, a!.campaign_id]);
    const queries = recorded
      .slice(from)
      .filter((e) => e.url.includes('campaign_id='))
      .map((e) => new URL(e.url, 'http://x').searchParams.getAll('campaign_id'));
    expect(queries.sort()).toEqual([[a!.campaign_id], [b!.campaign_id]].sort());
  });

  it('the sandbox refuses MATCH_TYPE_EXACT on input and a repeated id filter, with 400 naming the field', async () => {
    const [campaign] = await campaignsOf();
    const bad = await api(sandbox.url, token, 'PATCH', `/v1/ads/${account}/campaigns/${campaign!.campaign_id}/ad-groups`, {
      ad_groups: [
        {
          ad_group_id: campaign!.ad_groups[0]?.ad_group_id ?? 'x',
          targeting: { negation: false, operator: 'AND', criteria: [{ keyword_targeting: { keywords: ['k'], match_type: 'MATCH_TYPE_EXACT' } }] },
        },
      ],
    });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ code: 'BadRequest', message: expect.stringMatching(/match_type: must be EXACT or BROAD/) as string });
    const repeated = await api(sandbox.url, token, 'GET', `/v1/ads/${account}/campaigns?campaign_id=a&campaign_id=b`);
    expect(repeated.status).toBe(400);
    expect(repeated.body.message).toMatch(/campaign_id/);
  });
});

describe('sandbox fidelity', () => {
  it('update-ads: PATCH .../ads renames ads in a batch; `ads ads patch` from flags, JSON and CSV', async () => {
    const campaigns = await campaignsOf();
    const campaign = campaigns.find((c) => c.ad_groups.length > 0)!;
    const group = campaign.ad_groups[0]!.ad_group_id;
    const scope = ['--account', account, '--campaign', campaign.campaign_id, '--ad-group', group];
    const created = await user.json<Array<{ id: string }>>(['ads', 'ads', 'create', ...scope, '--from-json', '-'], {
      stdin: '{"ads":[{"name":"One"},{"name":"Two"}]}',
    });
    const [one, two] = created.map((r) => r.id);
    expect((await user.run(['ads', 'ads', 'patch', ...scope, '--ad-id', one!, '--name', 'One renamed'])).code).toBe(0);
    const json = await user.run(['ads', 'ads', 'patch', ...scope, '--from-json', '-'], {
      stdin: JSON.stringify({
        ads: [
          { ad_id: two, name: 'Two renamed' },
          { ad_id: 'missing-ad', name: 'x' },
        ],
      }),
    });
    expect(json.code).toBe(1);
    const csv = await user.run(['ads', 'ads', 'list', ...scope, '-o', 'csv']);
    const edited = csv.stdout.replace('One renamed', 'One again');
    const fromCsv = await user.run(['ads', 'ads', 'patch', ...scope, '--from-csv', '-', '--json'], { stdin: edited });
    expect(fromCsv.code, fromCsv.stderr).toBe(0);
    const path = `/v1/ads/${account}/campaigns/${campaign.campaign_id}/ad-groups/${group}/ads`;
    const names = (await api(sandbox.url, token, 'GET', path)).body.ads.map((a: { ad_id: string; name: string }) => [a.ad_id, a.name]);
    expect(names).toEqual(
      expect.arrayContaining([
        [one, 'One again'],
        [two, 'Two renamed'],
      ]),
    );
    const batch = await api(sandbox.url, token, 'PATCH', path, {
      ads: [
        { ad_id: one, name: 'Raw' },
        { ad_id: 'nope', name: 'x' },
      ],
    });
    expect(batch.body.results).toEqual([
      { success: { id: one } },
      { failure: { error_code: 'NotFound', error_message: expect.stringMatching(/ad nope not found/) as string } },
    ]);
  });

  it('every ads error has a {code, message} body: invalid JSON, no JSON Content-Type, unknown route and method', async () => {
    const path = `/v1/ads/${account}/campaigns`;
    const send = (method: string, url: string, body: string, contentType?: string) =>
      fetch(`${sandbox.url}${url}`, { method, headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}) }, body });
    const cases: Array<[Response, number]> = [
      [await send('PATCH', path, '{not json', 'application/json'), 400],
      [await send('PATCH', path, '{"campaigns":[]}', 'text/plain'), 415],
      [await send('POST', path, '{"campaigns":[]}'), 415],
      [await send('POST', '/v1/ads/no/such/route', '{}', 'application/json'), 404],
      [await send('DELETE', path, ''), 405],
    ];
    for (const [response, status] of cases) {
      expect(response.status).toBe(status);
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as Record<string, unknown>;
      expect(Object.keys(body).sort()).toEqual(['code', 'message']);
    }
  });

  it('rider answers say exactly application/json, and an explicit null is an absent optional field', async () => {
    const rider = await userToken(sandbox.url, 'profile request');
    const products = await fetch(`${sandbox.url}/v1.2/products?latitude=${SF.downtown.split(',')[0]}&longitude=${SF.downtown.split(',')[1]}`, {
      headers: { authorization: `Bearer ${rider}` },
    });
    expect(products.headers.get('content-type')).toBe('application/json');
    const [lat, lng] = SF.downtown.split(',').map(Number);
    const [endLat, endLng] = SF.mission.split(',').map(Number);
    const estimate = await api(sandbox.url, rider, 'POST', '/v1.2/requests/estimate', {
      start_latitude: lat,
      start_longitude: lng,
      end_latitude: endLat,
      end_longitude: endLng,
      seat_count: null,
      start_address: null,
      end_address: null,
    });
    expect(estimate.status, JSON.stringify(estimate.body)).toBe(200);
  });

  it('/oauth/v2/authorize (the OpenAPI authorizationUrl) answers like /oauth/v2/universal/authorize', async () => {
    const params = { redirect_uri: 'http://127.0.0.1:53682/callback', scope: 'profile', response_type: 'code', state: 's' };
    const universal = await openAuthorize(authorizeUrl(sandbox.url, params));
    const openapi = await openAuthorize(authorizeUrl(sandbox.url, params).replace('/oauth/v2/universal/authorize', '/oauth/v2/authorize'));
    expect(openapi.status).toBe(universal.status);
    expect(openapi.status).toBe(200);
    expect(openapi.html).toMatch(/<form method="post"/);
  });
});
