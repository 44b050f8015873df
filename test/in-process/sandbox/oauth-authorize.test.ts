import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { TOKEN_LIFETIME_SECONDS } from '../../../src/schemas/oauth.js';
import { api, getToken } from '../../helpers/sandbox.js';
import { answerConsent, authorizeAndAllow, authorizeUrl, CLIENT, openAuthorize, pkce, REDIRECT, tokenRequest } from '../../helpers/oauth.js';

let sandbox: Sandbox;
let now = Date.now();
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, now: () => now });
});
afterAll(() => sandbox.close());

describe('the consent page', () => {
  it('shows the application, each scope in plain words, and Allow/Deny in a form post', async () => {
    const page = await openAuthorize(authorizeUrl(sandbox.url, { scope: 'profile request', login_hint: 'no-payment', state: 'a b&c' }));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    expect(page.html).toContain('Platform CLI (sandbox demo)');
    expect(page.html).toContain('See your name, email address, picture and promotion code');
    expect(page.html).toContain('Request rides and cancel them on your behalf');
    expect(page.html).toContain('Noah Nopay');
    expect(page.html).toMatch(/<form method="post" action="\/oauth\/v2\/universal\/authorize">/);
    expect(page.html).toMatch(/<button type="submit" name="decision" value="allow"[^>]*>Allow<\/button>/);
    expect(page.html).toMatch(/<button type="submit" name="decision" value="deny"[^>]*>Deny<\/button>/);
  });

  it('Allow redirects to the redirect URI with a code and the unchanged state', async () => {
    const page = await openAuthorize(authorizeUrl(sandbox.url, { scope: 'profile all_trips', state: 'a b&c=d' }));
    const back = await answerConsent(sandbox.url, page.html, 'allow');
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('a b&c=d');
    expect(back.searchParams.get('code')).toMatch(/^[\w-]{40,}$/);
  });

  it('Deny redirects with error=access_denied and the state; the form cannot be answered twice', async () => {
    const page = await openAuthorize(authorizeUrl(sandbox.url, { scope: 'request_receipt', state: 'deny-me' }));
    const back = await answerConsent(sandbox.url, page.html, 'deny');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('deny-me');
    expect(back.searchParams.has('code')).toBe(false);
    await expect(answerConsent(sandbox.url, page.html, 'allow')).rejects.toThrow(/consent answered 400/);
  });

  it('remembers consent per user, client and scope set; prompt=consent asks again', async () => {
    const scope = 'profile profile.mobile_number';
    await authorizeAndAllow(sandbox.url, { scope, login_hint: 'unverified' });
    const again = await openAuthorize(
      authorizeUrl(sandbox.url, { scope, login_hint: 'unverified', state: 's2', redirect_uri: 'http://localhost:9999/callback' }),
    );
    expect(again.status).toBe(302);
    const location = new URL(again.location!);
    expect(location.host).toBe('localhost:9999');
    expect(location.searchParams.get('state')).toBe('s2');
    expect(location.searchParams.get('code')).toBeTruthy();
    // Another user, or another set of scopes, is asked.
    expect((await openAuthorize(authorizeUrl(sandbox.url, { scope, login_hint: 'demo' }))).status).toBe(200);
    expect((await openAuthorize(authorizeUrl(sandbox.url, { scope: 'profile', login_hint: 'unverified' }))).status).toBe(200);
    expect((await openAuthorize(authorizeUrl(sandbox.url, { scope, login_hint: 'unverified', prompt: 'consent' }))).status).toBe(200);
  });

  it.each([
    ['an unknown client', { client_id: 'nobody' }, /invalid_client/],
    ['an unregistered redirect URI', { redirect_uri: 'https://evil.example/callback' }, /not registered/],
    ['a loopback URI with another path', { redirect_uri: 'http://127.0.0.1:8080/other' }, /not registered/],
    ['a loopback URI over https', { redirect_uri: 'https://127.0.0.1:8080/callback' }, /not registered/],
    ['a redirect URI with a fragment', { redirect_uri: 'http://127.0.0.1:8080/callback#x' }, /not registered/],
    ['no redirect URI', { redirect_uri: undefined }, /no redirect_uri/],
    ['an unknown client with a valid redirect URI and a bad scope', { client_id: 'nobody', scope: 'rides.everything' }, /invalid_client/],
  ])('answers %s with an error page, never a redirect', async (_what, params, message) => {
    const page = await openAuthorize(authorizeUrl(sandbox.url, params));
    expect(page.status).toBe(400);
    expect(page.location).toBeNull();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.html).toMatch(message);
  });

  it.each([
    ['an unknown scope', { scope: 'profile rides.everything' }, 'invalid_scope', /unknown scope rides.everything/],
    ['no scope', { scope: '' }, 'invalid_scope', /names no scope/],
    ['an unknown user in login_hint', { login_hint: 'nobody@example.com' }, 'invalid_request', /no sandbox user matches/],
    ['a bad code_challenge', { code_challenge: 'short' }, 'invalid_request', /code_challenge/],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type', /must be code/],
  ])('redirects %s back to the valid redirect URI with error and state (RFC 6749 4.1.2.1)', async (_what, params, error, description) => {
    const page = await openAuthorize(authorizeUrl(sandbox.url, { ...params, state: 'keep me' }));
    expect(page.status).toBe(302);
    const back = new URL(page.location!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('error')).toBe(error);
    expect(back.searchParams.get('error_description')).toMatch(description);
    expect(back.searchParams.get('state')).toBe('keep me');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('escapes what it echoes', async () => {
    const page = await openAuthorize(authorizeUrl(sandbox.url, { client_id: '<script>alert(1)</script>' }));
    expect(page.html).not.toContain('<script>');
    expect(page.html).toContain('&lt;script&gt;');
  });

  it('redirects errors about a valid request back to the app', async () => {
    const page = await openAuthorize(authorizeUrl(sandbox.url, { response_type: 'token' }));
    expect(page.status).toBe(302);
    expect(new URL(page.location!).searchParams.get('error')).toBe('unsupported_response_type');
  });
});

describe('authorization_code and refresh_token grants', () => {
  async function codeFor(params: Record<string, string | undefined> = {}) {
    const back = await authorizeAndAllow(sandbox.url, { prompt: 'consent', ...params });
    return back.searchParams.get('code')!;
  }
  const exchange = (code: string, extra: Record<string, string> = {}, encoding: 'urlencoded' | 'multipart' = 'urlencoded') =>
    tokenRequest(sandbox.url, { grant_type: 'authorization_code', ...CLIENT, code, redirect_uri: REDIRECT, ...extra }, encoding);

  it.each(['urlencoded', 'multipart'] as const)('exchanges a code with PKCE (%s body) for a token response with a refresh token', async (encoding) => {
    const { verifier, challenge } = pkce();
    const code = await codeFor({ scope: 'profile request', code_challenge: challenge, code_challenge_method: 'S256' });
    const res = await exchange(code, { code_verifier: verifier }, encoding);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: TOKEN_LIFETIME_SECONDS, scope: 'profile request' });
    expect(res.body.access_token).toMatch(/^[\w-]{20,}$/);
    expect(res.body.refresh_token).toMatch(/^[\w-]{20,}$/);
    const me = await api(sandbox.url, res.body.access_token, 'GET', '/v1.2/me');
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('dana.demo@example.com');
  });

  it.each(['urlencoded', 'multipart'] as const)('refreshes (%s body): a new token response; the old refresh token stops working', async (encoding) => {
    const first = await exchange(await codeFor());
    const refresh = (token: string) => tokenRequest(sandbox.url, { grant_type: 'refresh_token', ...CLIENT, refresh_token: token }, encoding);
    const second = await refresh(first.body.refresh_token);
    expect(second.status).toBe(200);
    expect(second.body.access_token).not.toBe(first.body.access_token);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(second.body.scope).toBe('profile');
    expect((await api(sandbox.url, second.body.access_token, 'GET', '/v1.2/me')).status).toBe(200);
    const reused = await refresh(first.body.refresh_token);
    expect(reused.status).toBe(400);
    expect(reused.body.error).toBe('invalid_grant');
  });

  it('refuses a PKCE verifier that does not match, and a missing one', async () => {
    const { challenge } = pkce();
    const code = await codeFor({ code_challenge: challenge, code_challenge_method: 'S256' });
    const wrong = await exchange(code, { code_verifier: pkce().verifier });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge' } });
    const missing = await exchange(code);
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/missing code_verifier/) } });
  });

  it('refuses a verifier when the authorize request had no challenge', async () => {
    const res = await exchange(await codeFor(), { code_verifier: pkce().verifier });
    expect(res.body.error).toBe('invalid_grant');
  });

  it('a code works once; a second use fails and revokes the tokens it issued', async () => {
    const code = await codeFor();
    const first = await exchange(code);
    expect(first.status).toBe(200);
    expect((await api(sandbox.url, first.body.access_token, 'GET', '/v1.2/me')).status).toBe(200);
    const second = await exchange(code);
    expect(second).toMatchObject({ status: 400, body: { error: 'invalid_grant', error_description: expect.stringMatching(/already used/) } });
    expect((await api(sandbox.url, first.body.access_token, 'GET', '/v1.2/me')).status).toBe(401);
    const refresh = await tokenRequest(sandbox.url, { grant_type: 'refresh_token', ...CLIENT, refresh_token: first.body.refresh_token });
    expect(refresh.body.error).toBe('invalid_grant');
  });

  it('a code is bound to its redirect URI and client, and expires after 10 minutes', async () => {
    const code = await codeFor();
    expect((await exchange(code, { redirect_uri: 'http://127.0.0.1:1/callback' })).body.error).toBe('invalid_grant');
    const missing = await tokenRequest(sandbox.url, { grant_type: 'authorization_code', ...CLIENT, code });
    expect(missing).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    const wrongSecret = await exchange(code, { client_secret: 'nope' });
    expect(wrongSecret).toMatchObject({ status: 401, body: { error: 'invalid_client' } });
    const late = await codeFor();
    now += 10 * 60 * 1000 + 1;
    try {
      expect((await exchange(late)).body).toMatchObject({ error: 'invalid_grant', error_description: 'the authorization code has expired' });
    } finally {
      now = Date.now();
    }
    expect((await exchange(code)).status).toBe(200);
  });
});

describe('GET /v1.2/me', () => {
  async function userToken(scope: string, loginHint?: string): Promise<string> {
    const back = await authorizeAndAllow(sandbox.url, { scope, login_hint: loginHint, prompt: 'consent' });
    const res = await tokenRequest(sandbox.url, { grant_type: 'authorization_code', ...CLIENT, code: back.searchParams.get('code')!, redirect_uri: REDIRECT });
    return res.body.access_token;
  }

  it('with profile: the profile without mobile_number; with profile.mobile_number: with it', async () => {
    const plain = await api(sandbox.url, await userToken('profile'), 'GET', '/v1.2/me');
    expect(plain.body).toEqual({
      rider_id: expect.any(String),
      first_name: 'Dana',
      last_name: 'Demo',
      email: 'dana.demo@example.com',
      picture: expect.stringMatching(/^https:/),
      promo_code: 'DANAD1',
      mobile_verified: true,
      uuid: '',
    });
    const mobile = await api(sandbox.url, await userToken('profile profile.mobile_number', 'unverified'), 'GET', '/v1.2/me');
    expect(mobile.body).toMatchObject({ first_name: 'Uma', mobile_verified: false, mobile_number: '+14155550102' });
  });

  it('with only eats.pos_provisioning: rider_id alone', async () => {
    const res = await api(sandbox.url, await userToken('eats.pos_provisioning'), 'GET', '/v1.2/me');
    expect(Object.keys(res.body)).toEqual(['rider_id']);
  });

  it('refuses other scopes, client tokens and missing tokens with rider error bodies', async () => {
    expect(await api(sandbox.url, await userToken('request'), 'GET', '/v1.2/me')).toMatchObject({ status: 403, body: { code: 'forbidden' } });
    expect(await api(sandbox.url, await getToken(sandbox.url), 'GET', '/v1.2/me')).toMatchObject({
      status: 403,
      body: { code: 'forbidden', message: expect.stringMatching(/user access token/) },
    });
    expect(await api(sandbox.url, undefined, 'GET', '/v1.2/me')).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
  });
});
