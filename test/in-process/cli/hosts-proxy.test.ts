// Production splits the API over three hosts (spec 4.2, 4.4), and users sit behind proxies.
// Here the sandbox stands behind three front doors on their own origins — the API, the
// token/authorize endpoints, the rider API — each forwarding only its own paths and logging
// what reached it; and behind a real forward proxy that logs every request.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../../src/schemas/sandbox.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { startCli, visitAuthorize, type Visit } from '../../helpers/auth.js';

interface Logged {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

interface Door {
  url: string;
  log: Logged[];
  close: () => Promise<void>;
}

async function listen(server: http.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function closer(server: http.Server): () => Promise<void> {
  return () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
}

/** Forwards one request to `target` (an origin) and pipes the answer back. */
function forward(target: string, req: http.IncomingMessage, body: Buffer, res: http.ServerResponse, path: string): void {
  const upstream = http.request(`${target}${path}`, { method: req.method, headers: { ...req.headers, host: new URL(target).host } }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  upstream.end(body);
}

/** A server that reads each request whole, logs it, then hands it on. */
function loggingServer(log: Logged[], handle: (req: http.IncomingMessage, body: Buffer, res: http.ServerResponse) => void): http.Server {
  return http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      log.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: body.toString('utf8') });
      handle(req, body, res);
    });
  });
}

/** An origin that forwards the paths `serves` accepts to the sandbox, logs everything, and 404s the rest. */
async function frontDoor(sandbox: Sandbox, serves: (path: string) => boolean): Promise<Door> {
  const log: Logged[] = [];
  const server = loggingServer(log, (req, body, res) => {
    if (!serves(new URL(req.url ?? '/', 'http://x').pathname))
      return void res.writeHead(404, { 'content-type': 'application/json' }).end('{"code":"NotFound","message":"not on this host"}');
    forward(sandbox.url, req, body, res, req.url ?? '/');
  });
  const url = await listen(server);
  return { url, log, close: closer(server) };
}

/** A forward proxy: absolute-form HTTP requests and CONNECT tunnels, each logged. */
async function forwardProxy(): Promise<Door> {
  const log: Logged[] = [];
  const server = loggingServer(log, (req, body, res) => {
    const target = new URL(req.url ?? '');
    forward(target.origin, req, body, res, target.pathname + target.search);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    log.push({ method: 'CONNECT', url: req.url ?? '', headers: req.headers, body: '' });
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
  });
  const url = await listen(server);
  return { url, log, close: closer(server) };
}

const SECRET_FIELDS = /client_secret|code_verifier|[?&]code=|refresh_token/;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

describe('a profile with separate API, auth and rider hosts', () => {
  let api: Door;
  let auth: Door;
  let rider: Door;
  beforeAll(async () => {
    [api, auth, rider] = await Promise.all([
      frontDoor(sandbox, (p) => !p.startsWith('/oauth/') && !p.startsWith('/v1.2/')),
      frontDoor(sandbox, (p) => p.startsWith('/oauth/')),
      frontDoor(sandbox, (p) => p.startsWith('/v1.2/')),
    ]);
  });
  afterAll(async () => Promise.all([api.close(), auth.close(), rider.close()]));

  /** A user whose profile names the three hosts; PLATFORM_BASE_URL of the test helper is cleared. */
  function userOfThreeHosts(): TestUser {
    return new TestUser(sandbox, { PLATFORM_BASE_URL: '', PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
  }
  const hostFlags = () => ['--base-url', api.url, '--auth-url', auth.url, '--rider-url', rider.url];

  function expectEachOnItsHost(): void {
    for (const request of api.log.concat(rider.log)) {
      expect(request.url, 'the API hosts get no OAuth call').not.toMatch(/^\/oauth\//);
      expect(request.body + request.url, 'no secret reaches the API hosts').not.toMatch(SECRET_FIELDS);
      expect(request.body).not.toContain(SANDBOX_DEMO_CLIENT_SECRET);
    }
    for (const request of auth.log) {
      expect(request.headers.authorization ?? '', 'no bearer token reaches the auth host').not.toMatch(/^Bearer /i);
    }
  }

  it('client credentials: the token comes from auth_url, the ads calls go to base_url, auth status shows the three', async () => {
    const user = userOfThreeHosts();
    const login = await user.run(['auth', 'login', '--client-credentials', '--client-id', SANDBOX_DEMO_CLIENT_ID, ...hostFlags(), '--profile', 'split']);
    expect(login.code, login.stderr).toBe(0);
    const accounts = await user.run(['ads', 'accounts', 'list', '--profile', 'split', '--json']);
    expect(accounts.code, accounts.stderr).toBe(0);
    expect(auth.log.some((r) => r.method === 'POST' && r.url === '/oauth/v2/token' && r.body.includes('client_secret='))).toBe(true);
    expect(api.log.some((r) => r.url === '/v1/ads/ad-accounts' && /^Bearer /.test(r.headers.authorization ?? ''))).toBe(true);
    const status = await user.run(['auth', 'status', '--profile', 'split', '--json']);
    const split = (JSON.parse(status.stdout) as Array<{ profile: string; base_url: string; auth_url: string; rider_url: string }>).find(
      (p) => p.profile === 'split',
    );
    expect(split).toMatchObject({ base_url: api.url, auth_url: auth.url, rider_url: rider.url });
    expectEachOnItsHost();
  });

  it('browser sign-in: authorize and code exchange on auth_url, /v1.2/me on rider_url, nothing secret on the API hosts', async () => {
    const user = userOfThreeHosts();
    let visit!: Promise<Visit>;
    const run = startCli(user, ['auth', 'login', '--client-id', SANDBOX_DEMO_CLIENT_ID, ...hostFlags(), '--profile', 'browser-split'], {
      env: { PLATFORM_BASE_URL: '' },
      openUrl: async (url) => void (visit = visitAuthorize(url, 'allow')),
    });
    const result = await run.done;
    await visit;
    expect(result.code, result.stderr).toBe(0);
    expect(new URL(result.stderr.split('\n')[1]!.trim()).origin).toBe(auth.url);
    expect(auth.log.some((r) => r.url === '/oauth/v2/token' && r.body.includes('grant_type=authorization_code'))).toBe(true);
    expect(rider.log.some((r) => r.url === '/v1.2/me')).toBe(true);
    const me = await user.run(['rider', 'me', '--profile', 'browser-split', '--json'], { env: { PLATFORM_BASE_URL: '' } });
    expect(me.code, me.stderr).toBe(0);
    expectEachOnItsHost();
  });
});

describe('through a forward proxy (HTTP_PROXY)', () => {
  let proxy: Door;
  beforeAll(async () => {
    proxy = await forwardProxy();
  });
  afterAll(() => proxy.close());

  it('auth login --client-credentials and ads campaigns list succeed, and the proxy saw every request', async () => {
    const user = new TestUser(sandbox, { HTTP_PROXY: proxy.url, PLATFORM_CLIENT_SECRET: SANDBOX_DEMO_CLIENT_SECRET });
    const before = sandbox.stats.apiRequests + sandbox.stats.tokenRequests;
    const login = await user.run(['auth', 'login', '--client-credentials', '--client-id', SANDBOX_DEMO_CLIENT_ID]);
    expect(login.code, login.stderr).toBe(0);
    const accounts = await user.json<Array<{ ad_account_id: string }>>(['ads', 'accounts', 'list']);
    const list = await user.run(['ads', 'campaigns', 'list', '--account', accounts[0]!.ad_account_id, '--json']);
    expect(list.code, list.stderr).toBe(0);
    const reached = sandbox.stats.apiRequests + sandbox.stats.tokenRequests - before;
    expect(reached).toBeGreaterThanOrEqual(3);
    expect(proxy.log.filter((r) => r.url.startsWith(sandbox.url))).toHaveLength(reached);
  });

  it('NO_PROXY lists hosts reached directly', async () => {
    const user = new TestUser(sandbox, { HTTP_PROXY: proxy.url, NO_PROXY: '127.0.0.1' });
    const seen = proxy.log.length;
    const accounts = await user.run(['ads', 'accounts', 'list', '--json']);
    expect(accounts.code, accounts.stderr).toBe(0);
    expect(proxy.log.length).toBe(seen);
  });

  it('a connection error names the proxy it went through', async () => {
    const user = new TestUser(sandbox, { HTTP_PROXY: 'http://user:pw@127.0.0.1:9' });
    const result = await user.run(['ads', 'accounts', 'list']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/through the proxy http:\/\/127\.0\.0\.1:9/);
    expect(result.stderr).not.toContain('pw@');
  });
});
