// The built CLI serves each page's script from its bundle in dist/ (npm run build), byte for
// byte, under the page's strict CSP; it never bundles at run time.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandboxProcess, type SandboxProcess } from '../helpers/sandbox-process.js';

const dist = path.resolve(import.meta.dirname, '../../dist');

describe('the built sandbox console', () => {
  let sandbox: SandboxProcess;
  beforeAll(async () => {
    sandbox = await startSandboxProcess();
  });
  afterAll(() => sandbox?.stop());

  it('serves dist/console-page.js as /_sandbox/console.js, and the page allows scripts from itself only', async () => {
    const script = await fetch(`${sandbox.url}/_sandbox/console.js`);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await script.text()).toBe(fs.readFileSync(path.join(dist, 'console-page.js'), 'utf8'));
    const page = await fetch(`${sandbox.url}/_sandbox/`);
    expect(page.headers.get('content-security-policy')).toMatch(/^default-src 'self'; /);
    expect(page.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(await page.text()).toContain('<script src="/_sandbox/console.js" defer></script>');
  });

  it('ships both pages in the build', () => {
    for (const file of ['console-page.js', 'inbox-page.js']) expect(fs.statSync(path.join(dist, file)).size).toBeGreaterThan(5_000);
  });
});
