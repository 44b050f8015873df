// Where a page's script comes from: the built bundle beside the serving module (dist/), or,
// run from source with no such file, its TypeScript bundled on first request; loaded once.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadPageScript, pageScriptOnce } from '../../src/base/page-script.js';
import { tempDir } from '../helpers/temp.js';

const root = path.resolve(import.meta.dirname, '../..');
const inboxSource = pathToFileURL(path.join(root, 'src/webhooks/inbox/browser/inbox-page.ts'));

describe('page scripts', () => {
  it('reads the built file beside the serving module when there is one', async () => {
    const dist = tempDir('page-script-');
    fs.writeFileSync(path.join(dist, 'inbox-page.js'), '/* built */');
    const from = pathToFileURL(path.join(dist, 'chunk-ABC.js')).href;
    expect(await loadPageScript({ built: 'inbox-page.js', source: inboxSource, from })).toBe('/* built */');
  });

  it('from source, bundles the TypeScript for the browser: one script, no import left, no type left', async () => {
    const from = pathToFileURL(path.join(root, 'src/webhooks/inbox/server.ts')).href;
    const script = await loadPageScript({ built: 'inbox-page.js', source: inboxSource, from });
    expect(script).toMatch(/^("use strict";)?\(\(\)=>\{/);
    expect(script).not.toMatch(/\bimport\b|\brequire\(/);
    expect(script).toContain('inbox-token');
  });

  it('says to build when neither the bundle nor the source is there, and tries again at the next request', async () => {
    const dist = tempDir('page-script-');
    const from = pathToFileURL(path.join(dist, 'main.js')).href;
    const missing = pageScriptOnce({ built: 'gone.js', source: pathToFileURL(path.join(dist, 'gone.ts')), from });
    await expect(missing()).rejects.toThrow('the page script gone.js is missing from the build: run npm run build');
    fs.writeFileSync(path.join(dist, 'gone.js'), 'ok');
    expect(await missing()).toBe('ok');
  });
});
