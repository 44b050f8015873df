// The built CLI as a process: `platform auth login` opens the URL with $PLATFORM_BROWSER,
// here a script that plays the browser over HTTP (consent page, Allow, redirect).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir } from '../helpers/cli.js';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'bin/platform.js');

const BROWSER_SCRIPT = `
const url = process.argv[2];
const page = await fetch(url, { redirect: 'manual' });
const html = await page.text();
const id = /name="request_id" value="([^"]+)"/.exec(html)[1];
const answer = await fetch(new URL('/oauth/v2/universal/authorize', url), { method: 'POST', redirect: 'manual', body: new URLSearchParams({ request_id: id, decision: 'allow' }) });
await fetch(answer.headers.get('location'));
`;

let sandbox: Sandbox;
beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
});
afterAll(() => sandbox.close());

describe('platform auth login as a process', () => {
  it('opens the URL with $PLATFORM_BROWSER and ends signed in', async () => {
    const dir = tempDir();
    const script = path.join(dir, 'browser.mjs');
    fs.writeFileSync(script, BROWSER_SCRIPT);
    // --timeout only bounds a run that would hang: a deadline, scaled like the test's own.
    const child = spawn(process.execPath, [bin, 'auth', 'login', '--timeout', `${scaled(20)}s`], {
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        PLATFORM_CONFIG_DIR: path.join(dir, 'config'),
        PLATFORM_BASE_URL: sandbox.url,
        PLATFORM_BROWSER: `${process.execPath} ${script}`,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c));
    child.stderr.on('data', (c: Buffer) => (stderr += c));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(stderr).toMatch(/^Open this URL in a browser to sign in:\n {2}http:\/\/127\.0\.0\.1:\d+\/oauth\/v2\/universal\/authorize\?/);
    expect(stderr).toMatch(/✓ Signed in to profile local .* as Dana Demo/);
    expect(code).toBe(0);
    expect(stdout).toBe('');
    const config = JSON.parse(fs.readFileSync(path.join(dir, 'config', 'config.json'), 'utf8'));
    expect(config.profiles.local.token.grant).toBe('authorization_code');
    expect(stderr).not.toContain(config.profiles.local.token.access_token);
    expect(fs.statSync(path.join(dir, 'config')).mode & 0o777).toBe(0o700);
  });
});
