// The sandbox's HTTP protocol over raw HTTP: 404/405 in each API's error shape (rider spec
// 7.2, ads 7.1), 406 for an Accept the JSON APIs cannot meet, 415 for a body that is not
// JSON (the token endpoint keeps its forms), and CORS for origins an application registered
// (rider API, spec 5.11).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenApiContract } from '../../helpers/contract/openapi.js';
import { SANDBOX_DEMO_WEB_ORIGIN } from '../../../src/sandbox/clients.js';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { userToken } from '../../helpers/rider.js';
import { api, getToken } from '../../helpers/sandbox.js';

let sandbox: Sandbox;
let adsToken: string;
let riderToken: string;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  adsToken = await getToken(sandbox.url);
  riderToken = await userToken(sandbox.url, 'profile request');
});
afterAll(() => sandbox.close());

describe('unknown routes and methods', () => {
  it('answers rider paths in the rider shape: 404 not_found, 405 method_not_allowed with Allow', async () => {
    const missing = await api(sandbox.url, riderToken, 'GET', '/v1.2/no-such-thing');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: expect.stringContaining('/v1.2/no-such-thing'), code: 'not_found' });
    const wrong = await api(sandbox.url, riderToken, 'DELETE', '/v1.2/me');
    expect(wrong.status).toBe(405);
    expect(wrong.body).toEqual({ message: expect.stringContaining('DELETE'), code: 'method_not_allowed' });
    expect(wrong.headers.get('allow')).toBe('GET, PATCH');
  });

  it('keeps the ads shape {code, message} (spec 7.1) elsewhere', async () => {
    const missing = await api(sandbox.url, adsToken, 'GET', '/v1/ads/nothing/here/at/all');
    expect(missing).toMatchObject({ status: 404, body: { code: 'NotFound', message: expect.any(String) } });
    const wrong = await api(sandbox.url, adsToken, 'DELETE', '/v1/ads/ad-accounts');
    expect(wrong).toMatchObject({ status: 405, body: { code: 'BadRequest', message: expect.any(String) } });
  });
});

describe('content negotiation', () => {
  it.each(['text/xml', 'text/html, text/plain', 'application/json;q=0'])('answers Accept: %s with 406 listing the acceptable types', async (accept) => {
    const rider = await api(sandbox.url, riderToken, 'GET', '/v1.2/me', undefined, { accept });
    expect(rider.status).toBe(406);
    expect(rider.body).toEqual({ message: expect.any(String), code: 'not_acceptable', acceptable: ['application/json'] });
    const ads = await api(sandbox.url, adsToken, 'GET', '/v1/ads/ad-accounts', undefined, { accept });
    expect(ads).toMatchObject({ status: 406 });
    expect(ads.body).toEqual({ code: 'BadRequest', message: expect.stringContaining('application/json') });
    // A deliberate departure from the OpenAPI (it declares no 406), with spec 7.1's code: the contract's overlay (d) lists it.
    const exchange = {
      test: 'protocol',
      method: 'GET',
      url: '/v1/ads/ad-accounts',
      status: 406,
      responseContentType: 'application/json',
      responseBody: JSON.stringify(ads.body),
    };
    expect(new OpenApiContract().violations(exchange)).toEqual([]);
  });

  it.each(['application/json', 'application/json; charset=utf-8', '*/*', 'application/*', 'text/html, */*;q=0.8'])('serves Accept: %s', async (accept) => {
    expect((await api(sandbox.url, riderToken, 'GET', '/v1.2/me', undefined, { accept })).status).toBe(200);
  });

  it('answers a body that is not JSON with 415 on JSON routes, and still takes forms at the token endpoint', async () => {
    const form = await api(sandbox.url, riderToken, 'PATCH', '/v1.2/me', 'applied_promotion_codes=FREERIDE', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    expect(form.body).toEqual({ message: expect.stringContaining('application/json'), code: 'unsupported_media_type' });
    const text = await api(sandbox.url, adsToken, 'POST', '/v1/ads/x/campaigns', '{"campaigns":[]}', { 'content-type': 'text/plain' });
    expect(text).toMatchObject({ status: 415, body: { code: 'BadRequest' } });
    const contract = new OpenApiContract();
    const exchange = { test: 'protocol', method: 'POST', url: '/v1/ads/x/campaigns', status: 415, responseContentType: 'application/json' };
    expect(contract.violations({ ...exchange, responseBody: JSON.stringify(text.body) })).toEqual([]);
    // The overlay holds the code to spec 7.1's table.
    expect(contract.violations({ ...exchange, responseBody: JSON.stringify({ code: 'UnsupportedMediaType', message: 'x' }) })).not.toEqual([]);
    expect((await api(sandbox.url, riderToken, 'PATCH', '/v1.2/me', { applied_promotion_codes: 'FREERIDE' })).status).toBe(200);
    // The token endpoint's forms are not JSON, and stay accepted.
    expect(await getToken(sandbox.url)).toBeTruthy();
  });
});

describe('CORS on the rider API (spec 5.11)', () => {
  const preflight = (origin: string, path = '/v1.2/me', method = 'PATCH') =>
    fetch(`${sandbox.url}${path}`, {
      method: 'OPTIONS',
      headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': 'authorization, content-type' },
    });

  it('answers the preflight of a registered origin with the allowed origin, methods and headers', async () => {
    const res = await preflight(SANDBOX_DEMO_WEB_ORIGIN);
    expect(res.status).toBe(204);
    expect(res.headers.get('access-control-allow-origin')).toBe(SANDBOX_DEMO_WEB_ORIGIN);
    expect(res.headers.get('access-control-allow-methods')).toBe('GET, PATCH, OPTIONS');
    expect(res.headers.get('access-control-allow-headers')).toMatch(/authorization/);
    expect(res.headers.get('access-control-allow-headers')).toMatch(/content-type/);
    expect(res.headers.get('vary')).toBe('Origin');
  });

  it('allows the registered origin to read answers, errors included', async () => {
    const ok = await api(sandbox.url, riderToken, 'GET', '/v1.2/me', undefined, { origin: SANDBOX_DEMO_WEB_ORIGIN });
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe(SANDBOX_DEMO_WEB_ORIGIN);
    expect(ok.headers.get('access-control-expose-headers')).toMatch(/x-request-id/);
    const denied = await api(sandbox.url, undefined, 'GET', '/v1.2/me', undefined, { origin: SANDBOX_DEMO_WEB_ORIGIN });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe(SANDBOX_DEMO_WEB_ORIGIN);
  });

  it('gives no CORS headers to an unregistered origin, nor on the ads API', async () => {
    const evil = await preflight('https://evil.example');
    expect(evil.status).toBe(403);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
    expect(((await evil.json()) as any).code).toBe('origin_not_allowed');
    const read = await api(sandbox.url, riderToken, 'GET', '/v1.2/me', undefined, { origin: 'https://evil.example' });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const ads = await api(sandbox.url, adsToken, 'GET', '/v1/ads/ad-accounts', undefined, { origin: SANDBOX_DEMO_WEB_ORIGIN });
    expect(ads.headers.get('access-control-allow-origin')).toBeNull();
    expect((await preflight(SANDBOX_DEMO_WEB_ORIGIN, '/v1/ads/ad-accounts', 'GET')).headers.get('access-control-allow-origin')).toBeNull();
  });
});
