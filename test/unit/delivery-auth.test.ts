// The delivery side of spec 6.3 rule 5: Basic headers, and OAuth tokens kept until shortly
// before they expire, shared by deliveries waiting at once, dropped when refused.
import { describe, expect, it } from 'vitest';
import { DeliveryAuthorizer, DeliveryAuthError, parsePair, type PostForm } from '../../src/webhooks/delivery-auth.js';

function tokenServer(answers: Array<{ status: number; body: unknown }>) {
  const requests: Array<{ url: string; form: string; authorization: string | undefined }> = [];
  const postForm: PostForm = async (url, form, headers) => {
    requests.push({ url, form: form.toString(), authorization: headers.authorization });
    await Promise.resolve();
    return answers.shift() ?? { status: 500, body: undefined };
  };
  return { requests, postForm };
}

describe('DeliveryAuthorizer', () => {
  it('Basic: the same header every time, RFC 7617', async () => {
    const auth = new DeliveryAuthorizer({ type: 'basic', user: 'Aladdin', password: 'open sesame' }, { postForm: tokenServer([]).postForm, now: () => 0 });
    expect(await auth.authorization()).toBe('Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==');
  });

  it('OAuth: one token for deliveries at once, kept until a tenth of its life (at most 5 s) before expiry, renewed after', async () => {
    let now = 1_000_000;
    const server = tokenServer([
      { status: 200, body: { access_token: 't1', token_type: 'Bearer', expires_in: 60 } },
      { status: 200, body: { access_token: 't2', token_type: 'Bearer', expires_in: 60 } },
    ]);
    const auth = new DeliveryAuthorizer(
      { type: 'oauth', tokenUrl: 'http://127.0.0.1:9/oauth/token', clientId: 'c', clientSecret: 's:x', scopes: 'a b' },
      { postForm: server.postForm, now: () => now },
    );
    expect(await Promise.all([auth.authorization(), auth.authorization(), auth.authorization()])).toEqual(['Bearer t1', 'Bearer t1', 'Bearer t1']);
    expect(server.requests).toEqual([
      {
        url: 'http://127.0.0.1:9/oauth/token',
        form: 'grant_type=client_credentials&scope=a+b',
        authorization: `Basic ${Buffer.from('c:s:x').toString('base64')}`,
      },
    ]);
    now += 54_999;
    expect(await auth.authorization()).toBe('Bearer t1');
    now += 1;
    expect(await auth.authorization()).toBe('Bearer t2');
    expect(auth.tokenFetches).toBe(2);
  });

  it('OAuth: a refused kept token is dropped once (not a fresh one twice); a failing token URL is a DeliveryAuthError naming it', async () => {
    const server = tokenServer([
      { status: 200, body: { access_token: 't1' } },
      { status: 401, body: { error: 'invalid_client' } },
    ]);
    const auth = new DeliveryAuthorizer(
      { type: 'oauth', tokenUrl: 'http://h/t', clientId: 'c', clientSecret: 's' },
      { postForm: server.postForm, now: () => 0 },
    );
    expect(await auth.authorization()).toBe('Bearer t1');
    expect(auth.refused('Bearer other')).toBe(false);
    expect(auth.refused('Bearer t1')).toBe(true);
    expect(auth.refused('Bearer t1')).toBe(false);
    await expect(auth.authorization()).rejects.toThrow(new DeliveryAuthError('token URL http://h/t: HTTP 401 (invalid_client), no access_token'));
  });
});

describe('parsePair', () => {
  it('splits at the first colon; both parts needed', () => {
    expect(parsePair('user:pa:ss', '--basic-auth')).toEqual({ id: 'user', secret: 'pa:ss' });
    for (const bad of ['user', ':pass', 'user:']) expect(parsePair(bad, '--basic-auth')).toMatch(/^--basic-auth: expected ID:SECRET/);
  });
});
