// `sandbox serve --host 0.0.0.0 --public-url URL`: the URL printed and the origin of report
// downloads name the public host, not the wildcard address no other machine can use.
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { run } from '../../../src/commands/sandbox/serve.js';
import type { Context } from '../../../src/context.js';
import { UsageError } from '../../../src/base/errors.js';
import { startSandbox } from '../../../src/sandbox/index.js';
import { REPORT_PROCESSING_SECONDS } from '../../../src/sandbox/reporting/index.js';
import { api, getToken } from '../../helpers/sandbox.js';
import { waitFor } from '../../helpers/wait.js';

// A port forwarded to this machine (say, from a container host): the URL others use.
const PUBLIC_URL = 'http://127.0.0.1:8080';

describe('startSandbox({ publicUrl })', () => {
  it('names the public host in its URL and in report download URLs, which work', async () => {
    let now = Date.parse('2026-03-01T12:00:00Z');
    const sandbox = await startSandbox({ host: '0.0.0.0', port: 0, publicUrl: `${PUBLIC_URL}/`, now: () => now });
    try {
      expect(sandbox.url).toBe(PUBLIC_URL);
      expect(sandbox.downloadUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const local = `http://127.0.0.1:${sandbox.port}`;
      const token = await getToken(local);
      const account = (await api(local, token, 'GET', '/v1/ads/ad-accounts')).body.ad_accounts[0].ad_account_id;
      const created = await api(local, token, 'POST', `/v1/ads/${account}/reporting/report`, {
        report_type: 'CAMPAIGN_PERFORMANCE',
        time_range: { start_time: '2025-01-13T00:00:00Z', end_time: '2025-01-20T00:00:00Z' },
        columns: ['campaign_id', 'clicks'],
        time_unit: 'SUMMARY',
        file_format: 'CSV',
      });
      expect(created.status).toBe(200);
      now += REPORT_PROCESSING_SECONDS * 1000;
      const report = await waitFor(
        async () => {
          const reported = await api(local, token, 'GET', `/v1/ads/${account}/reporting/${created.body.report_id}`);
          return reported.body.status !== 'PROCESSING' && reported;
        },
        { what: 'the report to leave PROCESSING' },
      );
      const reportUrl = new URL(report.body.result.success_result.report_url as string);
      expect(reportUrl.origin).toBe(sandbox.downloadUrl);
      const file = await fetch(reportUrl);
      expect(file.status).toBe(200);
      expect(await file.text()).toMatch(/^campaign_id,clicks/);
    } finally {
      await sandbox.close();
    }
  });
});

describe('platform sandbox serve --public-url', () => {
  function serveContext() {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    let out = '';
    let err = '';
    stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    const controller = new AbortController();
    const ctx = {
      io: { stdout, stderr, stdin: new PassThrough(), stdoutIsTTY: false, stderrIsTTY: false, stdinIsTTY: false },
      env: {},
      clock: { now: () => Date.now(), sleep: async () => {} },
      signal: controller.signal,
      info: (line: string) => stderr.write(`${line}\n`),
    } as unknown as Context;
    return { ctx, stop: () => controller.abort(), out: () => out, err: () => err };
  }
  const flags = { host: '0.0.0.0', port: 0, seed: 1, failRate: 0, throttleRate: 0, itemFailRate: 0, latency: 0, timeScale: 1 };

  async function printed(out: () => string): Promise<string> {
    await waitFor(() => /Report downloads/.test(out()), { what: 'the sandbox to print where it serves downloads', state: out });
    return out();
  }

  it('prints the public URL (and what it is bound to) and downloads on the public host', async () => {
    const serve = serveContext();
    const done = run(serve.ctx, { ...flags, publicUrl: PUBLIC_URL });
    const out = await printed(serve.out);
    serve.stop();
    await done;
    expect(out).toMatch(/^Sandbox listening on http:\/\/127\.0\.0\.1:8080 \(bound to 0\.0\.0\.0 port \d+\)$/m);
    expect(out).toMatch(/^Report downloads served from http:\/\/127\.0\.0\.1:\d+$/m);
    expect(out).toContain(`Try: PLATFORM_BASE_URL=${PUBLIC_URL} platform ads accounts list`);
    expect(out).not.toContain('0.0.0.0:');
  });

  it('without --public-url on a wildcard address, says how to name the machine', async () => {
    const serve = serveContext();
    const done = run(serve.ctx, flags);
    await printed(serve.out);
    serve.stop();
    await done;
    expect(serve.err()).toMatch(/--host 0\.0\.0\.0 listens on every interface; add --public-url http:\/\/NAME:\d+/);
  });

  it.each(['devbox:4010', 'ftp://devbox', 'http://devbox:4010/api', 'http://0.0.0.0:4010'])('refuses --public-url %s before listening', async (publicUrl) => {
    const serve = serveContext();
    await expect(run(serve.ctx, { ...flags, publicUrl })).rejects.toThrow(UsageError);
    expect(serve.out()).toBe('');
  });
});
