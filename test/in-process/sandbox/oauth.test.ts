import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { TOKEN_LIFETIME_SECONDS } from '../../../src/schemas/oauth.js';
import { api } from '../../helpers/sandbox.js';
import { SANDBOX_DELIVERY_CLIENT_ID, SANDBOX_DELIVERY_CLIENT_SECRET } from '../../../src/sandbox/clients.js';

const ALL_SCOPES = 'ads.ad-accounts.read ads.campaigns.read ads.campaigns.write ads.reporting ads.products.read';

describe('sandbox token endpoint', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, tokenRequestsPerHour: 1000 });
  });
  afterAll(() => sandbox.close());

  const post = (body: URLSearchParams | FormData, headers: Record<string, string> = {}) =>
    fetch(`${sandbox.url}/oauth/v2/token`, { method: 'POST', body, headers });
  const creds = { client_id: SANDBOX_DEMO_CLIENT_ID, client_secret: SANDBOX_DEMO_CLIENT_SECRET };

  it('issues a token for an urlencoded body, with all allowed scopes by default', async () => {
    const res = await post(new URLSearchParams({ grant_type: 'client_credentials', ...creds }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: ALL_SCOPES });
    expect(body.access_token).toMatch(/^[\w-]{20,}$/);
    const accounts = await api(sandbox.url, body.access_token, 'GET', '/v1/ads/ad-accounts');
    expect(accounts.status).toBe(200);
  });

  it('includes a refresh token in the client-credentials response (spec 4.2), which refreshes for the client; none for delivery (5.4)', async () => {
    const res = await post(new URLSearchParams({ grant_type: 'client_credentials', ...creds, scope: 'ads.campaigns.read' }));
    const body = (await res.json()) as any;
    expect(body.refresh_token).toMatch(/^[\w-]{20,}$/);
    const refreshed = await post(new URLSearchParams({ grant_type: 'refresh_token', ...creds, refresh_token: body.refresh_token }));
    expect(refreshed.status).toBe(200);
    const next = (await refreshed.json()) as any;
    expect(next).toMatchObject({ token_type: 'Bearer', scope: 'ads.campaigns.read' });
    expect(next.refresh_token).toMatch(/^[\w-]{20,}$/);
    expect((await api(sandbox.url, next.access_token, 'GET', '/v1/ads/ad-accounts')).status).toBe(403);
    expect((await api(sandbox.url, next.access_token, 'GET', '/v1.2/me')).status).toBe(403);
    // Rotating: the used refresh token is spent.
    const again = await post(new URLSearchParams({ grant_type: 'refresh_token', ...creds, refresh_token: body.refresh_token }));
    expect(again.status).toBe(400);
    const delivery = await post(
      new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX_DELIVERY_CLIENT_ID, client_secret: SANDBOX_DELIVERY_CLIENT_SECRET }),
    );
    expect(((await delivery.json()) as any).refresh_token).toBeUndefined();
  });

  it('issues a token for a multipart body with a narrowed scope', async () => {
    const form = new FormData();
    form.set('grant_type', 'client_credentials');
    form.set('client_id', creds.client_id);
    form.set('client_secret', creds.client_secret);
    form.set('scope', 'ads.campaigns.read');
    const res = await post(form);
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).scope).toBe('ads.campaigns.read');
  });

  it('accepts HTTP Basic client authentication', async () => {
    const basic = Buffer.from(`${creds.client_id}:${creds.client_secret}`).toString('base64');
    const res = await post(new URLSearchParams({ grant_type: 'client_credentials' }), { authorization: `Basic ${basic}` });
    expect(res.status).toBe(200);
  });

  it.each([
    [{ client_id: creds.client_id, client_secret: creds.client_secret }, 400, 'invalid_request', /grant_type/],
    [{ grant_type: 'client_credentials', client_secret: creds.client_secret }, 400, 'invalid_request', /client_id/],
    [{ grant_type: 'client_credentials', client_id: creds.client_id }, 400, 'invalid_request', /client_secret/],
    [{ grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'x' }, 401, 'invalid_client', /client/],
    [{ grant_type: 'client_credentials', client_id: creds.client_id, client_secret: 'wrong' }, 401, 'invalid_client', /client/],
    [{ grant_type: 'password', ...creds }, 400, 'unsupported_grant_type', /password/],
    [
      { grant_type: 'client_credentials', ...creds, scope: 'ads.campaigns.read eats.deliveries' },
      400,
      'invalid_scope',
      /^scope eats.deliveries is not allowed for this client$/,
    ],
  ])('rejects %j with %i %s', async (fields, status, error, description) => {
    const res = await post(new URLSearchParams(fields as Record<string, string>));
    expect(res.status).toBe(status);
    const body = (await res.json()) as any;
    expect(body.error).toBe(error);
    expect(body.error_description).toMatch(description);
  });

  it('counts token requests', async () => {
    const before = sandbox.stats.tokenRequests;
    await post(new URLSearchParams({ grant_type: 'client_credentials', ...creds }));
    expect(sandbox.stats.tokenRequests).toBe(before + 1);
  });
});

describe('sandbox token rate limit', () => {
  let sandbox: Sandbox;
  let now = Date.parse('2026-03-01T00:00:00Z');
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, tokenRequestsPerHour: 3, now: () => now });
  });
  afterAll(() => sandbox.close());

  it('answers 429 rate_limit_exceeded with Retry-After past the hourly limit, and recovers after an hour', async () => {
    const body = () => new URLSearchParams({ grant_type: 'client_credentials', client_id: SANDBOX_DEMO_CLIENT_ID, client_secret: SANDBOX_DEMO_CLIENT_SECRET });
    for (let i = 0; i < 3; i++) {
      expect((await fetch(`${sandbox.url}/oauth/v2/token`, { method: 'POST', body: body() })).status).toBe(200);
    }
    const limited = await fetch(`${sandbox.url}/oauth/v2/token`, { method: 'POST', body: body() });
    expect(limited.status).toBe(429);
    expect(((await limited.json()) as any).error).toBe('rate_limit_exceeded');
    expect(Number(limited.headers.get('retry-after'))).toBe(3600);
    now += 3600_001;
    expect((await fetch(`${sandbox.url}/oauth/v2/token`, { method: 'POST', body: body() })).status).toBe(200);
  });
});
