import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { browserUnavailable, openBrowser, splitCommand } from '../../src/auth/browser.js';
import { tempDir } from '../helpers/cli.js';

describe('opening the browser', () => {
  it('splits a browser command as a shell would', () => {
    expect(splitCommand(`firefox --new-window`)).toEqual(['firefox', '--new-window']);
    expect(splitCommand(`'/opt/My Browser/bin' -a "two words" back\\ slash ""`)).toEqual(['/opt/My Browser/bin', '-a', 'two words', 'back slash', '']);
  });

  it('knows when no browser can be opened', () => {
    expect(browserUnavailable({ env: {}, platform: 'linux' })).toMatch(/no display/);
    expect(browserUnavailable({ env: { SSH_CONNECTION: '1 2 3 4' }, platform: 'linux' })).toMatch(/SSH session without a display/);
    expect(browserUnavailable({ env: { DISPLAY: ':0' }, platform: 'linux' })).toBeUndefined();
    expect(browserUnavailable({ env: { SSH_TTY: '/dev/pts/1' }, platform: 'darwin' })).toMatch(/SSH session/);
    expect(browserUnavailable({ env: {}, platform: 'darwin' })).toBeUndefined();
    // A browser command is taken at its word, display or not (e.g. a text browser).
    expect(browserUnavailable({ env: { BROWSER: 'w3m' }, platform: 'linux' })).toBeUndefined();
  });

  it('runs $PLATFORM_BROWSER (before $BROWSER) with the URL as its last argument', async () => {
    const dir = tempDir();
    const script = path.join(dir, 'browser.mjs');
    fs.writeFileSync(script, `import fs from 'node:fs'; fs.writeFileSync(process.argv[2], JSON.stringify(process.argv.slice(3)));`);
    const out = path.join(dir, 'args.json');
    const url = 'http://127.0.0.1:4010/oauth/v2/universal/authorize?client_id=x&state=a%20b';
    await openBrowser(url, { env: { PLATFORM_BROWSER: `"${process.execPath}" ${script} ${out} --flag`, BROWSER: 'false' }, platform: 'linux' });
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toEqual(['--flag', url]);
    fs.rmSync(out);
    await openBrowser(url, { env: { BROWSER: `${process.execPath} ${script} ${out}` }, platform: 'linux' });
    expect(JSON.parse(fs.readFileSync(out, 'utf8'))).toEqual([url]);
  });

  it('rejects when the command fails or does not exist, or there is no display', async () => {
    await expect(openBrowser('http://x', { env: { BROWSER: 'false' }, platform: 'linux' })).rejects.toThrow(/false exited with code 1/);
    await expect(openBrowser('http://x', { env: { BROWSER: '/nonexistent/browser' }, platform: 'linux' })).rejects.toThrow(/could not start: .*ENOENT/);
    await expect(openBrowser('http://x', { env: {}, platform: 'linux' })).rejects.toThrow(/no display/);
  });
});
