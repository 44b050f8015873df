// The addresses of a profile (`config set base_url | rider_url | token_url | download_url`):
// checked when set, used by the next command, in the order flag > env > profile > default,
// and shown by `config get` and `config list`. Against real sandboxes on port 0.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { firstAccount, sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { startCli } from '../../helpers/auth.js';
import { waitFor } from '../../helpers/wait.js';

let sandbox: Sandbox;
let deadUrl: string;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  deadUrl = `http://127.0.0.1:${await closedPort()}`;
});
afterAll(() => sandbox.close());

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * A user whose only address is the profile's: no PLATFORM_BASE_URL, and the built-in local
 * profile's default port (PLATFORM_SANDBOX_PORT) is one nothing listens on.
 */
function profileOnlyUser(): TestUser {
  return new TestUser(sandbox, { PLATFORM_BASE_URL: undefined, PLATFORM_SANDBOX_PORT: new URL(deadUrl).port });
}

interface SettingRow {
  key: string;
  value: string | null;
  source: string | null;
  profile: string;
}

const rowOf = async (user: TestUser, key: string, env: Record<string, string> = {}) =>
  (await user.json<SettingRow[]>(['config', 'list'], { env })).find((row) => row.key === key);

describe('config set base_url', () => {
  it('the banner of a sandbox on another port prints the config set that points local at it; run verbatim, the next command uses it', async () => {
    const user = profileOnlyUser();
    const before = await user.run(['ads', 'accounts', 'list']);
    expect(before.code, 'nothing listens where local points by default').toBe(1);

    const stop = new AbortController();
    const serve = startCli(user, ['sandbox', 'serve', '--port', '0'], { signal: stop.signal });
    try {
      const line = await waitFor(() => /^Save it: platform (config set base_url (\S+) --profile local)$/m.exec(serve.stdout()), {
        what: 'the banner line with the config set command',
        state: serve.stdout,
      });
      const served = line[2]!;
      expect(serve.stdout()).toContain(`Sandbox listening on ${served}\n`);
      const set = await user.run(line[1]!.split(' '));
      expect(set.code, set.stderr).toBe(0);
      expect(set.stderr).toBe(`Set base_url to ${served} for profile local.\n`);
      expect(user.readConfig().profiles.local).toEqual({ base_url: served });

      const list = await user.run(['ads', 'accounts', 'list', '--json']);
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout)).not.toHaveLength(0);
      // The command reached the served sandbox: it logged the request.
      expect(serve.stderr()).toMatch(/GET \/v1\/ads\/ad-accounts 200/);
      expect(await user.run(['config', 'get', 'base_url'])).toEqual({ code: 0, stdout: `${served}\n`, stderr: '' });
      expect(await rowOf(user, 'base_url')).toEqual({ key: 'base_url', value: served, source: 'config', profile: 'local' });
    } finally {
      stop.abort();
      await serve.done;
    }
  });

  it('a sandbox on the default port prints no such line', async () => {
    const port = String(await closedPort());
    const user = new TestUser(sandbox, { PLATFORM_SANDBOX_PORT: port });
    const stop = new AbortController();
    const serve = startCli(user, ['sandbox', 'serve'], { signal: stop.signal });
    try {
      await waitFor(() => serve.stdout().includes('Try: '), { what: 'the banner', state: serve.stdout });
      expect(serve.stdout()).toContain(`Sandbox listening on http://127.0.0.1:${port}\n`);
      expect(serve.stdout()).not.toContain('config set');
    } finally {
      stop.abort();
      await serve.done;
    }
  });

  it('PLATFORM_BASE_URL wins over the profile, and config set says so; unset goes back to the built-in sandbox', async () => {
    const user = profileOnlyUser();
    const set = await user.run(['config', 'set', 'base_url', deadUrl], { env: { PLATFORM_BASE_URL: sandbox.url } });
    expect(set.code, set.stderr).toBe(0);
    expect(set.stderr).toBe(`Set base_url to ${deadUrl} for profile local.\nPLATFORM_BASE_URL=${sandbox.url} is set in this shell and still wins over it.\n`);
    expect((await user.run(['ads', 'accounts', 'list'])).code, 'the profile points at nothing').toBe(1);
    const fromEnv = await user.run(['ads', 'accounts', 'list'], { env: { PLATFORM_BASE_URL: sandbox.url } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(await rowOf(user, 'base_url', { PLATFORM_BASE_URL: sandbox.url })).toMatchObject({ value: sandbox.url, source: 'env PLATFORM_BASE_URL' });

    // The token the last command cached goes with the address.
    const unset = await user.run(['config', 'unset', 'base_url']);
    expect(unset.stderr).toBe(
      'Removed base_url from profile local (back to the built-in http://127.0.0.1:4010).\n' +
        'Its cached token was for the old address and was removed; the next command gets a new one.\n',
    );
    expect(user.readConfig().profiles.local).toEqual({ grant: 'client_credentials' });
    // The built-in value (following PLATFORM_SANDBOX_PORT) is a default, not config.
    expect(await rowOf(user, 'base_url')).toEqual({ key: 'base_url', value: deadUrl, source: 'env PLATFORM_SANDBOX_PORT', profile: 'local' });
    expect(await rowOf(user, 'base_url', { PLATFORM_SANDBOX_PORT: '' })).toEqual({
      key: 'base_url',
      value: 'http://127.0.0.1:4010',
      source: 'default',
      profile: 'local',
    });
  });

  it('refuses a value that is not an absolute http(s) URL: one line naming the key, exit 2, nothing stored', async () => {
    const user = profileOnlyUser();
    for (const [key, value] of [
      ['base_url', 'localhost:4010'],
      ['base_url', '/v1'],
      ['rider_url', 'ftp://rider.example.com'],
      ['token_url', 'https://'],
      ['download_url', 'https://me:secret@files.example.com'],
      ['base_url', 'https://api.example.com/?x=1'],
    ] as const) {
      const result = await user.run(['config', 'set', key, value]);
      expect(result.code, `${key} ${value}`).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toMatch(new RegExp(`^${key}: must [^\\n]+\\n$`));
      expect(result.stderr).not.toContain('me:secret');
    }
    expect(user.readConfig).toThrow();

    // From the environment or a file edited by hand: the same check, naming where it came from, nothing sent.
    const seen = sandbox.stats.requests.length;
    const fromEnv = await user.run(['ads', 'accounts', 'list'], { env: { PLATFORM_BASE_URL: 'api.example.com' } });
    expect(fromEnv).toEqual({ code: 2, stdout: '', stderr: 'PLATFORM_BASE_URL: must be an absolute http:// or https:// URL, not "api.example.com"\n' });
    user.writeConfig({ profiles: { local: { base_url: sandbox.url, download_url: 'files' } } });
    const fromFile = await user.run(['ads', 'accounts', 'list']);
    expect(fromFile).toEqual({ code: 2, stdout: '', stderr: 'the profile setting download_url: must be an absolute http:// or https:// URL, not "files"\n' });
    expect(sandbox.stats.requests.length).toBe(seen);
  });

  it('a changed address drops the token cached for the old one, so it is never sent there', async () => {
    const user = profileOnlyUser();
    expect((await user.run(['config', 'set', 'base_url', sandbox.url])).code).toBe(0);
    expect((await user.run(['ads', 'accounts', 'list'])).code).toBe(0);
    expect(user.readConfig().profiles.local?.token).toBeDefined();
    const other = await sandboxOnFreePort();
    try {
      const moved = await user.run(['config', 'set', 'base_url', other.url]);
      expect(moved.stderr).toBe(
        `Set base_url to ${other.url} for profile local.\nIts cached token was for the old address and was removed; the next command gets a new one.\n`,
      );
      expect(user.readConfig().profiles.local).toEqual({ base_url: other.url, grant: 'client_credentials' });
      const list = await user.run(['ads', 'accounts', 'list']);
      expect(list.code, list.stderr).toBe(0);
      // The same value again keeps the new token.
      const again = await user.run(['config', 'set', 'base_url', other.url]);
      expect(again.stderr).toBe(`Set base_url to ${other.url} for profile local.\n`);
      expect(user.readConfig().profiles.local?.token).toBeDefined();
    } finally {
      await other.close();
    }
  });
});

describe('rider_url, token_url, download_url', () => {
  it('rider_url and token_url follow base_url until set; token_url is the auth_url that auth login --auth-url writes', async () => {
    const user = profileOnlyUser();
    expect((await user.run(['config', 'set', 'base_url', sandbox.url])).code).toBe(0);
    expect(await rowOf(user, 'rider_url')).toEqual({ key: 'rider_url', value: sandbox.url, source: 'base_url', profile: 'local' });
    expect(await rowOf(user, 'token_url')).toEqual({ key: 'token_url', value: sandbox.url, source: 'base_url', profile: 'local' });
    expect((await user.run(['config', 'get', 'token_url'])).code, 'not set in the profile').toBe(1);

    // Tokens from a dead address: the command fails; from the sandbox's, it works.
    expect((await user.run(['config', 'set', 'token_url', deadUrl])).code).toBe(0);
    expect(user.readConfig().profiles.local).toMatchObject({ auth_url: deadUrl });
    const dead = await user.run(['ads', 'accounts', 'list']);
    expect(dead.code).toBe(1);
    expect(dead.stderr).toContain(`could not reach ${deadUrl}`);
    const fromEnv = await user.run(['ads', 'accounts', 'list'], { env: { PLATFORM_AUTH_URL: sandbox.url } });
    expect(fromEnv.code, fromEnv.stderr).toBe(0);
    expect(await rowOf(user, 'token_url')).toEqual({ key: 'token_url', value: deadUrl, source: 'config', profile: 'local' });
    const status = await user.json<Array<{ profile: string; auth_url: string }>>(['auth', 'status']);
    expect(status.find((row) => row.profile === 'local')?.auth_url).toBe(deadUrl);
    expect((await user.run(['config', 'unset', 'token_url'])).code).toBe(0);

    expect((await user.run(['config', 'set', 'rider_url', deadUrl])).code).toBe(0);
    const rider = await user.run(['rider', 'products', '--at', '37.7749,-122.4194']);
    expect(rider.code).toBe(1);
    expect(rider.stderr).toContain(`could not reach ${deadUrl}`);
    expect((await user.run(['ads', 'accounts', 'list'])).code, 'the ads API is still base_url').toBe(0);
  });

  it('download_url: report files are fetched from it (the report URL path and query kept), PLATFORM_DOWNLOAD_URL over it', async () => {
    // Report jobs finish at once: a sandbox of its own at 1000 times real time.
    const reporting = await sandboxOnFreePort({ timeScale: 1000 });
    const user = new TestUser(reporting, { PLATFORM_BASE_URL: undefined, PLATFORM_SANDBOX_PORT: new URL(deadUrl).port });
    expect((await user.run(['config', 'set', 'base_url', reporting.url])).code).toBe(0);
    const { ad_account_id: account } = await firstAccount(user);
    const seen: string[] = [];
    // Another address of the download origin (a tunnel, a port mapping), under a path prefix.
    const tunnel = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const upstream = http.request(`${reporting.downloadUrl}${(req.url ?? '').replace(/^\/files/, '')}`, { headers: req.headers }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end();
    });
    await new Promise<void>((resolve) => tunnel.listen(0, '127.0.0.1', resolve));
    const tunnelUrl = `http://127.0.0.1:${(tunnel.address() as AddressInfo).port}/files/`;
    try {
      expect((await user.run(['config', 'set', 'download_url', tunnelUrl])).code).toBe(0);
      expect(await rowOf(user, 'download_url')).toEqual({ key: 'download_url', value: tunnelUrl, source: 'config', profile: 'local' });
      const report = ['ads', 'reports', 'run', '--account', account, '--type', 'CAMPAIGN_PERFORMANCE', '--columns', 'campaign_id,clicks'];
      const range = ['--since', '2025-01-13', '--until', '2025-01-20', '--out', '-'];
      const before = reporting.downloadRequests.length;
      const result = await user.run([...report, ...range]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^day_of,campaign_id,clicks\r?\n/);
      expect(seen).toHaveLength(1);
      expect(seen[0]).toMatch(/^\/files\/reports\/\S+$/);
      expect(reporting.downloadRequests.length).toBe(before + 1);

      // The environment wins: a dead download origin fails the download, naming it.
      const dead = await user.run([...report, ...range], { env: { PLATFORM_DOWNLOAD_URL: deadUrl } });
      expect(dead.code).toBe(1);
      expect(dead.stderr).toContain(`download from ${deadUrl} failed: connection refused (ECONNREFUSED)`);
      expect(seen).toHaveLength(1);
    } finally {
      tunnel.close();
      await reporting.close();
    }
  });
});

describe('--profile NAME that does not exist', () => {
  it('an API command: exit 2, one line naming the profiles there are and the login that creates it; nothing created', async () => {
    const user = profileOnlyUser();
    user.writeConfig({ profiles: { work: { base_url: sandbox.url, client_id: 'sandbox-demo-client' } } });
    const result = await user.run(['ads', 'accounts', 'list', '--profile', 'wrok']);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(
      'no profile named wrok; the profiles are local, work; run `platform auth login --client-credentials --profile wrok` to create it\n',
    );
    const fromEnv = await user.run(['rider', 'products', '--at', '37.7749,-122.4194'], { env: { PLATFORM_PROFILE: 'wrok' } });
    expect(fromEnv.code).toBe(2);
    expect(fromEnv.stderr).toMatch(/^no profile named wrok; the profiles are local, work;/);
    // auth status --check named a profile and checked nothing, exit 0.
    const status = await user.run(['auth', 'status', '--check', '--profile', 'wrok']);
    expect(status.code).toBe(2);
    expect(status.stdout).toBe('');
    expect(status.stderr).toBe(result.stderr);
    // A webhook command takes its secret from the profile: a typo is the same line, not "no webhook secret".
    const signed = await user.run(['webhooks', 'sign', '-', '--profile', 'wrok'], { stdin: '{}', env: { PLATFORM_WEBHOOK_SECRET: undefined } });
    expect(signed.code).toBe(2);
    expect(signed.stderr).toBe(result.stderr);
    for (const args of [
      ['config', 'set', 'base_url', sandbox.url],
      ['config', 'get', 'base_url'],
      ['config', 'list'],
      ['auth', 'logout'],
    ]) {
      const refused = await user.run([...args, '--profile', 'wrok']);
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.stderr, args.join(' ')).toBe('no profile named wrok; the profiles are local, work\n');
    }
    expect(Object.keys(user.readConfig().profiles)).toEqual(['work']);
  });
});
