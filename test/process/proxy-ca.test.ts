// Proxy and CA settings in-process, each way they can be given (flag, env, profile) and each
// way they can be wrong: the sandbox behind an HTTPS front signed by a throwaway CA, and a
// real forward proxy (test/helpers/tls-proxy.ts). The processes of test/process/proxy-tls.test.ts
// cover the four kinds of call; here it is one ads call each.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';
import { systemTool } from '../helpers/system-tools.js';
import { FRONT_HOST, makeTestCa, startForwardProxy, startTlsFront, type ForwardProxy, type Front, type TestCa } from '../helpers/tls-proxy.js';
import { scaled } from '../helpers/time-scale.js';

const openssl = systemTool('openssl');

let sandbox: Sandbox;
let ca: TestCa;
let front: Front;
let open: ForwardProxy;
let guarded: ForwardProxy;
let dir: string;

beforeAll(async () => {
  if (!openssl.present) return;
  dir = tempDir('platform-proxy-ca-');
  ca = makeTestCa(dir);
  [sandbox, open, guarded] = await Promise.all([sandboxOnFreePort(), startForwardProxy(), startForwardProxy({ credentials: 'me:right' })]);
  front = await startTlsFront(sandbox, ca);
}, scaled(60_000));
afterAll(async () => {
  if (!openssl.present) return;
  await Promise.all([front.close(), open.close(), guarded.close(), sandbox.close()]);
  fs.rmSync(dir, { recursive: true, force: true });
});

const viaLocalhost = () => `https://localhost:${front.port}`;
const viaProxyOnly = () => `https://${FRONT_HOST}:${front.port}`;
const list = ['ads', 'accounts', 'list', '--json'];

describe.skipIf(!openssl.present)(`the CA to trust${openssl.skipNote}`, () => {
  it('PLATFORM_CA_FILE, and a profile`s ca_file, work as --ca-file does; the flag wins over both', async () => {
    const fromEnv = new TestUser(sandbox, { PLATFORM_BASE_URL: viaLocalhost(), PLATFORM_CA_FILE: ca.caFile });
    expect((await fromEnv.run(list)).code).toBe(0);

    const fromProfile = new TestUser(sandbox, { PLATFORM_BASE_URL: viaLocalhost() });
    fromProfile.writeConfig({ default_profile: 'corp', profiles: { corp: { base_url: viaLocalhost(), ca_file: ca.caFile, ...demoClient() } } });
    const profiled = await fromProfile.run(list);
    expect(profiled.code, profiled.stderr).toBe(0);

    // The flag's file is read, not the environment's missing one.
    const both = new TestUser(sandbox, { PLATFORM_BASE_URL: viaLocalhost(), PLATFORM_CA_FILE: path.join(dir, 'missing.pem') });
    const flagged = await both.run([...list, '--ca-file', ca.caFile]);
    expect(flagged.code, flagged.stderr).toBe(0);
  });

  it('a bundle of several certificates: ours among others, CRLF line ends', async () => {
    const bundle = path.join(dir, 'bundle.pem');
    const other = fs.readFileSync(makeTestCa(tempDir('platform-other-ca-')).caFile, 'utf8');
    fs.writeFileSync(bundle, `# corporate roots\r\n${other}${fs.readFileSync(ca.caFile, 'utf8')}`.replace(/\r?\n/g, '\r\n'));
    const result = await new TestUser(sandbox, { PLATFORM_BASE_URL: viaLocalhost() }).run([...list, '--ca-file', bundle]);
    expect(result.code, result.stderr).toBe(0);
  });

  it('adds to the defaults, NODE_EXTRA_CA_CERTS among them, instead of replacing them', async () => {
    const user = new TestUser(sandbox, { PLATFORM_BASE_URL: viaLocalhost() });
    const untrusted = await user.run(list);
    expect(untrusted.code).toBe(1);
    expect(untrusted.stderr).toMatch(/TLS certificate is not signed by a trusted CA \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\).*--ca-file FILE/);
    const otherCa = makeTestCa(tempDir('platform-other-ca-')).caFile;
    expect((await user.run([...list, '--ca-file', otherCa])).code, 'a CA that did not sign the front').toBe(1);
    // Our CA as Node's extra one (read by this CLI from the env it was given), another as --ca-file: both trusted.
    const both = await user.run([...list, '--ca-file', otherCa], { env: { NODE_EXTRA_CA_CERTS: ca.caFile } });
    expect(both.code, both.stderr).toBe(0);
  });

  it('a missing, unreadable or certificate-less file: one line naming it and where it came from, exit 2, nothing sent', async () => {
    const notPem = path.join(dir, 'not.pem');
    fs.writeFileSync(notPem, 'hello\n');
    const badPem = path.join(dir, 'bad.pem');
    fs.writeFileSync(badPem, '-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n');
    const user = new TestUser(sandbox, { PLATFORM_BASE_URL: viaLocalhost() });
    const seen = front.requests.length;
    const cases: Array<[string[], Record<string, string>, string]> = [
      [['--ca-file', path.join(dir, 'missing.pem')], {}, `--ca-file ${path.join(dir, 'missing.pem')}: cannot read it (no such file)\n`],
      [[], { PLATFORM_CA_FILE: dir }, `PLATFORM_CA_FILE ${dir}: cannot read it (it is a folder)\n`],
      [['--ca-file', notPem], {}, `--ca-file ${notPem}: no PEM certificate in it (-----BEGIN CERTIFICATE----- ... -----END CERTIFICATE-----)\n`],
      [['--ca-file', badPem], {}, `--ca-file ${badPem}: certificate 1 of 1 is not a valid PEM certificate\n`],
    ];
    for (const [flags, env, line] of cases) {
      const result = await user.run([...list, ...flags], { env });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toBe(line);
    }
    expect(front.requests.length).toBe(seen);
  });
});

describe.skipIf(!openssl.present)(`proxy variables${openssl.skipNote}`, () => {
  it('NO_PROXY: a name, a CIDR range, a host:port and * reach the target directly', async () => {
    const cases: Array<[string, string]> = [
      [viaLocalhost(), 'localhost'],
      [viaLocalhost(), '.localhost'],
      [viaLocalhost(), `localhost:${front.port}`],
      [`https://127.0.0.1:${front.port}`, '127.0.0.0/8'],
      [viaLocalhost(), '*'],
    ];
    for (const [baseUrl, noProxy] of cases) {
      const seen = open.log.length;
      const result = await new TestUser(sandbox, { PLATFORM_BASE_URL: baseUrl, HTTPS_PROXY: open.url, NO_PROXY: noProxy }).run([
        ...list,
        '--ca-file',
        ca.caFile,
      ]);
      expect(result.code, `${noProxy}: ${result.stderr}`).toBe(0);
      expect(open.log.length, noProxy).toBe(seen);
    }
    // Another port than NO_PROXY's: through the proxy.
    const seen = open.tunnels().length;
    const other = await new TestUser(sandbox, { PLATFORM_BASE_URL: viaLocalhost(), HTTPS_PROXY: open.url, NO_PROXY: 'localhost:1' }).run([
      ...list,
      '--ca-file',
      ca.caFile,
    ]);
    expect(other.code, other.stderr).toBe(0);
    expect(open.tunnels().length).toBeGreaterThan(seen);
  });

  it('lower-case https_proxy is read first, as curl does', async () => {
    const user = new TestUser(sandbox, { PLATFORM_BASE_URL: viaProxyOnly(), https_proxy: open.url, HTTPS_PROXY: 'http://127.0.0.1:9' });
    const result = await user.run([...list, '--ca-file', ca.caFile]);
    expect(result.code, result.stderr).toBe(0);
  });

  it('a proxy that refuses the credentials: one line saying so (exit 1), the password nowhere', async () => {
    const user = new TestUser(sandbox, { PLATFORM_BASE_URL: viaProxyOnly(), HTTPS_PROXY: `http://me:wrong-secret@${guarded.url.slice('http://'.length)}` });
    const result = await user.run([...list, '--ca-file', ca.caFile, '--debug']);
    expect(result.code).toBe(1);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines.filter((l) => l.startsWith('could not reach'))).toEqual([
      `could not reach ${viaProxyOnly()} through the proxy ${guarded.url} (from HTTPS_PROXY; NO_PROXY lists hosts to reach directly): ` +
        'the proxy refused the credentials, or wants some (407): they go in the proxy URL, http://user:password@host:port (1 attempt) (profile local)',
    ]);
    expect(result.stderr).not.toContain('wrong-secret');
    expect(guarded.log.at(-1)?.refused).toBe(true);
  });

  it('a proxy URL that is not one, or of a kind not supported: exit 2 naming the variable, nothing sent', async () => {
    const seen = sandbox.stats.requests.length;
    for (const [env, line] of [
      [
        { HTTP_PROXY: 'socks5://me:secret@127.0.0.1:1080' },
        'HTTP_PROXY: socks5:// proxies are not supported; give an HTTP proxy: http://[user:password@]host[:port] (or https://)\n',
      ],
      [{ http_proxy: 'http://me:secret@:3128' }, 'http_proxy is not a proxy URL: http://[user:password@]host[:port] (or https://)\n'],
    ] as const) {
      const result = await new TestUser(sandbox, env).run(list);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(line);
    }
    expect(sandbox.stats.requests.length).toBe(seen);
  });
});

/** The sandbox's demo client, for a profile of our own. */
function demoClient(): { client_id: string; client_secret: string } {
  return { client_id: SANDBOX_DEMO_CLIENT_ID, client_secret: SANDBOX_DEMO_CLIENT_SECRET };
}
