// A connection that another attempt cannot fix soon fails at once, in one line naming the
// address, with no retries: a refused loopback port (the sandbox is not running), a name that
// does not resolve, a proxy that refuses the connection. The built CLI as a process, as a user
// runs it. No tight timing is asserted: the --debug trace shows one request and no retry, and
// the wall time stays well under the retry schedule's first back-offs (about 1.5 s at least).
import dns from 'node:dns/promises';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, runCli, type Ended } from '../helpers/cli-process.js';
import { tempDir } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';

/** The least the old schedule waited before its last attempt: 4 back-offs of at least 100, 200, 400, 800 ms. */
const RETRY_SCHEDULE_MS = 1500;

let dir: string;
let deadPort: number;
beforeAll(async () => {
  dir = tempDir('platform-fail-fast-');
  deadPort = await closedPort();
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A port nothing listens on (bound, then closed). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `platform ARGS` as a process, with how long it took from spawn to exit. */
async function timed(args: string[], env: Record<string, string>): Promise<Ended & { ms: number }> {
  const started = performance.now();
  const ended = await runCli(args, env);
  return { ...ended, ms: performance.now() - started };
}

/** A fresh home for each run; `url` is the API base URL. */
function envFor(url: string, extra: Record<string, string> = {}): Record<string, string> {
  const home = fs.mkdtempSync(path.join(dir, 'home-'));
  return { ...cliEnv(home, url), ...extra };
}

/** The requests a --debug trace shows going out, and the retries it announces. */
function traced(stderr: string): { requests: string[]; retries: string[] } {
  const lines = stderr.split('\n');
  return { requests: lines.filter((l) => /^> (GET|POST|PATCH|PUT|DELETE) /.test(l)), retries: lines.filter((l) => l.startsWith('* retrying')) };
}

/** A command that only starts and reads the config: what every run costs before the network. */
async function startUpMs(): Promise<number> {
  const run = await timed(['config', 'list'], envFor('http://127.0.0.1:1'));
  expect(run.code, run.stderr).toBe(0);
  return run.ms;
}

describe('connections that cannot succeed fail at once', { timeout: scaled(60_000) }, () => {
  it('a refused loopback port (127.0.0.1 and localhost): one line naming it, exit 1, one attempt, no retry', async () => {
    const baseline = await startUpMs();
    for (const url of [`http://127.0.0.1:${deadPort}`, `http://localhost:${deadPort}`]) {
      const run = await timed(['ads', 'accounts', 'list'], envFor(url));
      expect(run.code).toBe(1);
      expect(run.stdout).toBe('');
      expect(run.stderr).toBe(
        `could not reach ${url}: connection refused (ECONNREFUSED) (1 attempt) (profile local); is the sandbox running? Start it with \`platform sandbox serve\`\n`,
      );
      // Well under the back-offs a retry would have waited, whatever start-up costs on this machine.
      expect(run.ms - baseline, `${run.ms} ms against ${baseline} ms to start`).toBeLessThan(scaled(RETRY_SCHEDULE_MS));

      const debug = await runCli(['ads', 'accounts', 'list', '--debug'], envFor(url));
      expect(debug.code).toBe(1);
      expect(traced(debug.stderr)).toEqual({ requests: [`> POST ${url}/oauth/v2/token`], retries: [] });
      expect(debug.stderr).toContain('* ECONNREFUSED: not retried (nothing listens on that port of this machine)\n');
    }
  });

  it('a proxy that refuses the connection: one line naming the proxy, one attempt', async () => {
    const baseline = await startUpMs();
    const proxy = `http://127.0.0.1:${deadPort}`;
    const env = { HTTPS_PROXY: proxy };
    const run = await timed(['ads', 'accounts', 'list'], envFor('https://api.platform.test', env));
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `could not reach https://api.platform.test through the proxy ${proxy} (from HTTPS_PROXY; NO_PROXY lists hosts to reach directly): ` +
        'the proxy refused the connection (ECONNREFUSED) (1 attempt) (profile local)\n',
    );
    expect(run.ms - baseline).toBeLessThan(scaled(RETRY_SCHEDULE_MS));
    const debug = await runCli(['ads', 'accounts', 'list', '--debug'], envFor('https://api.platform.test', env));
    expect(traced(debug.stderr)).toEqual({ requests: ['> POST https://api.platform.test/oauth/v2/token'], retries: [] });
  });

  it('a host name that does not resolve (ENOTFOUND): one line naming it, one attempt', async (context) => {
    // Where the resolver itself cannot answer (EAI_AGAIN: retried, as a passing failure), there is nothing to check.
    const answer = await dns.lookup('api.platform.invalid').catch((error: NodeJS.ErrnoException) => error.code);
    if (answer !== 'ENOTFOUND') return context.skip(`the resolver answered ${String(answer)}, not ENOTFOUND`);
    const run = await runCli(['ads', 'accounts', 'list', '--debug'], envFor('http://api.platform.invalid'));
    expect(run.code).toBe(1);
    expect(traced(run.stderr)).toEqual({ requests: ['> POST http://api.platform.invalid/oauth/v2/token'], retries: [] });
    expect(run.stderr).toContain(
      'could not reach http://api.platform.invalid: the name api.platform.invalid does not resolve (ENOTFOUND) (1 attempt) (profile local)\n',
    );
  });

  it('a login against a base URL where nothing listens fails at once and leaves no profile and no secret', async () => {
    const env = envFor('http://127.0.0.1:1', { PLATFORM_CLIENT_SECRET: 'the-secret-of-staging', PLATFORM_SECURE_STORAGE: 'file' });
    delete env.PLATFORM_BASE_URL;
    const url = `http://127.0.0.1:${deadPort}`;
    const run = await runCli(['auth', 'login', '--client-credentials', '--profile', 'staging', '--client-id', 'staging-app', '--base-url', url], env);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^could not reach ${url}: connection refused \\(ECONNREFUSED\\) \\(1 attempt\\)`));
    const configFile = path.join(env.PLATFORM_CONFIG_DIR!, 'config.json');
    const stored = fs.existsSync(configFile) ? fs.readFileSync(configFile, 'utf8') : '';
    expect(stored).not.toContain('staging');
    expect(stored).not.toContain('the-secret-of-staging');
  });
});
