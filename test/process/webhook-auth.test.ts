// Authenticated deliveries as real processes (spec 6.3 rule 5): `sandbox serve` with its
// --webhook-oauth-* flags delivers a ride's events to `webhooks listen --oauth-client` through
// the listener's token URL (one token for the ride), and `listen --basic-auth` answers 401
// without the credentials; the secrets, given as @FILE and as flags, are never printed.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { sign } from '../../src/webhooks/hmac.js';
import { tempDir } from '../helpers/cli.js';
import { userToken } from '../helpers/rider.js';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';
import { scaled } from '../helpers/time-scale.js';
import { waitFor } from '../helpers/wait.js';
import { rideToCompletion } from '../helpers/webhooks.js';

const bin = path.resolve(import.meta.dirname, '../../bin/platform.js');
const running: Array<ChildProcess | SandboxProcess> = [];
afterEach(() => {
  for (const p of running.splice(0)) {
    if ('stop' in p) p.stop();
    else p.kill('SIGINT');
  }
});

interface ListenProcess {
  url: string;
  stdout: () => string;
  stderr: () => string;
  stop(): Promise<number | null>;
}

async function listenProcess(args: string[]): Promise<ListenProcess> {
  const child = spawn(process.execPath, [bin, 'webhooks', 'listen', '--port', '0', '-o', 'json', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: tempDir(), PLATFORM_CONFIG_DIR: tempDir(), PLATFORM_WEBHOOK_SECRET: SANDBOX_DEMO_CLIENT_SECRET },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c));
  child.stderr.on('data', (c: Buffer) => (stderr += c));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await waitFor(() => /Listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1], {
    what: 'webhooks listen to print its URL',
    state: () => stderr,
  });
  return {
    url,
    stdout: () => stdout,
    stderr: () => stderr,
    stop: () => {
      child.kill('SIGINT');
      return exited;
    },
  };
}

describe('authenticated deliveries between processes', () => {
  it(
    'sandbox serve --webhook-oauth-* delivers every event of a ride to listen --oauth-client, authorized, with one token',
    { timeout: scaled(60_000) },
    async () => {
      const listener = await listenProcess(['--oauth-client', 'gateway:client-secret-1', '--oauth-token-ttl', '600']);
      const clientFile = path.join(tempDir(), 'oauth-client');
      fs.writeFileSync(clientFile, 'gateway:client-secret-1\n', { mode: 0o600 });
      const sandbox = await startSandboxProcess([
        '--time-scale',
        '20000',
        '--webhook-url',
        `${listener.url}/hooks`,
        '--webhook-oauth-token-url',
        `${listener.url}/oauth/token`,
        '--webhook-oauth-client',
        `@${clientFile}`,
      ]);
      running.push(sandbox);
      const token = await userToken(sandbox.url, 'profile request request_receipt');
      await rideToCompletion({ url: sandbox.url } as Sandbox, token);
      const lines = () => listener.stdout().split('\n').filter(Boolean);
      await waitFor(() => lines().length >= 6, { what: "the ride's six deliveries", state: () => ({ stdout: listener.stdout(), stderr: listener.stderr() }) });
      expect(await listener.stop()).toBe(0);
      const events = lines().map((l) => JSON.parse(l) as { valid: boolean; auth: string; event_type: string });
      expect(events).toHaveLength(6);
      for (const e of events) expect(e).toMatchObject({ valid: true, auth: 'authorized' });
      expect(listener.stderr().match(/issued an access token/g)).toHaveLength(1);
      expect(listener.stdout() + listener.stderr()).not.toContain('client-secret-1');
    },
  );

  it('listen --basic-auth answers 401 with a Basic challenge without the credentials, 200 with them', { timeout: scaled(30_000) }, async () => {
    const listener = await listenProcess(['--basic-auth', 'hooks:s3cret-pass']);
    const body = Buffer.from(
      JSON.stringify({
        event_id: 'e1',
        event_time: 1764201600,
        event_type: 'requests.status_changed',
        meta: { user_id: 'u', resource_id: 'r1', resource_type: 'request', status: 'accepted' },
        resource_href: 'https://x/r1',
      }),
    );
    const post = (headers: Record<string, string> = {}) =>
      fetch(`${listener.url}/hooks`, { method: 'POST', body, headers: { 'x-platform-signature': sign(body, SANDBOX_DEMO_CLIENT_SECRET), ...headers } });
    const without = await post();
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Basic /);
    expect((await post({ authorization: `Basic ${Buffer.from('hooks:s3cret-pass').toString('base64')}` })).status).toBe(200);
    await waitFor(() => listener.stdout().split('\n').filter(Boolean).length >= 2, { what: 'two lines', state: listener.stdout });
    expect(await listener.stop()).toBe(0);
    expect(
      listener
        .stdout()
        .split('\n')
        .filter(Boolean)
        .map((l) => (JSON.parse(l) as { auth: string }).auth),
    ).toEqual(['unauthorized', 'authorized']);
    expect(listener.stdout() + listener.stderr()).not.toContain('s3cret-pass');
  });
});
