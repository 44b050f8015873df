import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../src/commands/sandbox/serve.js';
import type { Context } from '../../src/context.js';
import { SANDBOX_DEMO_CLIENT_ID, SANDBOX_DEMO_CLIENT_SECRET } from '../../src/schemas/sandbox.js';
import { api, getToken } from '../helpers/sandbox.js';
import { waitFor } from '../helpers/wait.js';

function collect(stream: PassThrough): () => string {
  let text = '';
  stream.on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

describe('platform sandbox serve', () => {
  it('prints the URL and demo credentials, logs requests to stderr, and stops on abort', async () => {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out = collect(stdout);
    const err = collect(stderr);
    const controller = new AbortController();
    const ctx = {
      io: { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
      env: {},
      clock: { now: () => Date.now(), sleep: async () => {} },
      signal: controller.signal,
    } as unknown as Context;
    const done = run(ctx, { host: '127.0.0.1', port: 0, seed: 1, failRate: 0, throttleRate: 0, itemFailRate: 0, latency: 0, timeScale: 1 });
    const url = await waitFor(() => out().match(/Sandbox listening on (http:\/\/\S+)/)?.[1], { what: 'the sandbox to print its URL', state: out });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const downloads = out().match(/Report downloads served from (http:\/\/\S+)/)?.[1];
    expect(downloads).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(downloads).not.toBe(url);
    expect(out()).toContain(`client id: ${SANDBOX_DEMO_CLIENT_ID}`);
    expect(out()).toContain(`client secret: ${SANDBOX_DEMO_CLIENT_SECRET}`);
    // On a port other than the local profile's, the hint names the URL, so it works verbatim.
    expect(out()).toMatch(/Try: PLATFORM_BASE_URL=http:\/\/127\.0\.0\.1:\d+ platform ads accounts list/);
    const token = await getToken(url);
    expect((await api(url, token, 'GET', '/v1/ads/ad-accounts')).status).toBe(200);
    expect(err()).toMatch(/GET \/v1\/ads\/ad-accounts 200 \d+ms/);
    controller.abort();
    await done;
    await expect(fetch(`${url}/_sandbox/stats`)).rejects.toThrow();
    await expect(fetch(`${downloads}/reports/x`)).rejects.toThrow();
  });
});
