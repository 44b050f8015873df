// The sandbox answers only its own names: a request whose Host is not loopback, the bound
// address or --public-url's host (a page of another site whose name was rebound to this
// address) gets 421 on every route — API, token endpoint, console, downloads — so the public
// demo credentials cannot be used through DNS rebinding.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { getToken } from '../../helpers/sandbox.js';

interface Answer {
  status: number;
  body: any;
}

/** One request with the given Host header (fetch does not let a caller set Host). */
function send(origin: string, path: string, host: string, options: { method?: string; body?: string; headers?: Record<string, string> } = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${origin}${path}`, { method: options.method ?? 'GET', headers: { ...options.headers, host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: keep the text
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

const tokenForm = new URLSearchParams({
  grant_type: 'client_credentials',
  client_id: SANDBOX_DEMO_CLIENT_ID,
  client_secret: SANDBOX_DEMO_CLIENT_SECRET,
}).toString();
const tokenRequest = { method: 'POST', body: tokenForm, headers: { 'content-type': 'application/x-www-form-urlencoded' } };

describe('a sandbox bound to 127.0.0.1', () => {
  let sandbox: Sandbox;
  let token: string;
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    token = await getToken(sandbox.url);
  });
  afterAll(() => sandbox.close());

  it('answers 421 to a foreign Host on the token endpoint, and issues no token', async () => {
    const before = sandbox.stats.tokenRequests;
    const answer = await send(sandbox.url, '/oauth/v2/token', 'evil.com', tokenRequest);
    expect(answer.status).toBe(421);
    expect(answer.body).toEqual({
      code: 'MisdirectedRequest',
      message: expect.stringMatching(/answers only at localhost, 127\.0\.0\.1, \[::1\].*not at host "evil\.com"/),
    });
    expect(answer.body.message).not.toMatch(/access_token/);
    expect(sandbox.stats.tokenRequests).toBe(before);
  });

  it('answers 421 to a foreign Host on the API (ads and rider shapes), the console and its event stream', async () => {
    const auth = { authorization: `Bearer ${token}` };
    const ads = await send(sandbox.url, '/v1/ads/ad-accounts', `evil.com:${sandbox.port}`, { headers: auth });
    expect(ads.status).toBe(421);
    expect(ads.body.code).toBe('MisdirectedRequest');
    const rider = await send(sandbox.url, '/v1.2/products?latitude=37.7&longitude=-122.4', `evil.com:${sandbox.port}`, { headers: auth });
    expect(rider.status).toBe(421);
    expect(rider.body).toEqual({ message: expect.stringMatching(/not at host "evil\.com:\d+"/), code: 'misdirected_request' });
    expect((await send(sandbox.url, '/_sandbox/session', 'evil.com')).status).toBe(421);
    expect((await send(sandbox.url, '/_sandbox/events', 'evil.com')).status).toBe(421);
    expect((await send(sandbox.url, '/_sandbox/state', 'localhost.evil.com')).status).toBe(421);
  });

  it('answers 421 to a foreign Host on the download origin', async () => {
    const foreign = await send(sandbox.downloadUrl, '/reports/nothing', 'evil.com');
    expect(foreign.status).toBe(421);
    expect(foreign.body.code).toBe('MisdirectedRequest');
    // Its own name gets the usual answer to a URL never issued.
    expect((await send(sandbox.downloadUrl, '/reports/nothing', `127.0.0.1:${new URL(sandbox.downloadUrl).port}`)).status).toBe(403);
  });

  it.each(['localhost', 'LOCALHOST:1234', '127.0.0.1', '127.0.0.1:4010', '127.1.2.3', '[::1]', '[::1]:4010'])('answers Host %s', async (host) => {
    const answer = await send(sandbox.url, '/oauth/v2/token', host, tokenRequest);
    expect(answer.status).toBe(200);
    expect(answer.body.access_token).toEqual(expect.any(String));
    expect((await send(sandbox.url, '/v1/ads/ad-accounts', host, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
  });
});

describe('a sandbox bound to 0.0.0.0 with --public-url', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    sandbox = await startSandbox({ host: '0.0.0.0', port: 0, publicUrl: 'http://devbox.test:8080' });
  });
  afterAll(() => sandbox.close());
  const local = () => `http://127.0.0.1:${sandbox.port}`;

  it.each(['devbox.test:8080', 'DevBox.test', '0.0.0.0', 'localhost', '127.0.0.1'])('answers Host %s', async (host) => {
    expect((await send(local(), '/oauth/v2/token', host, tokenRequest)).status).toBe(200);
  });

  it('refuses other names, on the API and on the download origin', async () => {
    const answer = await send(local(), '/oauth/v2/token', 'evil.com', tokenRequest);
    expect(answer.status).toBe(421);
    expect(answer.body.message).toMatch(/answers only at localhost, 127\.0\.0\.1, \[::1\], 0\.0\.0\.0, devbox\.test /);
    const downloads = `http://127.0.0.1:${new URL(sandbox.downloadUrl).port}`;
    expect((await send(downloads, '/reports/nothing', 'evil.com')).status).toBe(421);
    expect((await send(downloads, '/reports/nothing', 'devbox.test')).status).toBe(403);
  });
});
