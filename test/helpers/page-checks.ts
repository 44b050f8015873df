// What the design tests of the two pages measure in any engine, through BrowserPage.evaluate:
// axe-core's serious and critical violations, words broken across lines in table cells, cells
// cut short without their whole value in a title; and where the screenshots go.
import fs from 'node:fs';
import path from 'node:path';
import axe from 'axe-core';
import type { BrowserPage } from './browser-page.js';
import { keepScreenshot } from './screenshots.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Where the design tests' screenshots go (gitignored), one folder per engine. */
export function screenshotFolder(engine: string): string {
  const dir = path.join(root, '.tmp', 'screenshots', engine.toLowerCase());
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** A screenshot in `dir` as NAME-WxH.png (and in PLATFORM_TEST_SCREENSHOTS when set). */
export async function shoot(page: BrowserPage, dir: string, name: string, viewport: { width: number; height: number }): Promise<string> {
  const file = path.join(dir, `${name}-${viewport.width}x${viewport.height}.png`);
  await page.screenshot(file);
  keepScreenshot(file, `${path.basename(dir)}-${path.basename(file)}`);
  return file;
}

/**
 * axe-core's serious and critical violations of the page as it is now, one line each. The
 * script is evaluated by the driver (not a <script> of the page), so the page's CSP stays.
 */
export async function axeProblems(page: BrowserPage): Promise<string[]> {
  return page.evaluate<string[]>(`(async () => {
    ${axe.source}
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => v.id + ' (' + v.impact + '): ' + v.help + ' at ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', '));
  })()`);
}

/**
 * Words split across two lines in the visible cells matching `selector`: for each word of a
 * cell's text, the lines its Range's client rects lie on; a word on more than one line is
 * broken (`Statu s`, `8 2`). A cell that wraps between words passes.
 */
export function brokenWords(page: BrowserPage, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const broken = [];
    for (const cell of document.querySelectorAll(${JSON.stringify(selector)})) {
      if (!cell.getClientRects().length) continue;
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (const m of node.data.matchAll(/\\S+/g)) {
          const range = document.createRange();
          range.setStart(node, m.index);
          range.setEnd(node, m.index + m[0].length);
          const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) broken.push((cell.closest('table')?.id ?? '?') + ': ' + JSON.stringify(m[0]) + ' on ' + lines.size + ' lines');
        }
      }
    }
    return broken;
  })()`);
}

/** Visible cells whose text is cut short (an ellipsis) without the whole text in their title. */
export function cutWithoutTitle(page: BrowserPage, selector: string): Promise<string[]> {
  return page.evaluate<string[]>(`Array.from(document.querySelectorAll(${JSON.stringify(selector)}))
    .filter((td) => td.getClientRects().length && td.scrollWidth > td.clientWidth + 1 && !(td.title || '').includes(td.textContent.trim()))
    .map((td) => (td.closest('table')?.id ?? '?') + ': ' + JSON.stringify(td.textContent))`);
}

/** Makes one cell break its words the way the old pages did (CSSOM, which the CSP allows): wrapping anywhere, in a large font. */
export const breakACell = (selector: string) =>
  `((td) => { td.style.whiteSpace = 'normal'; td.style.overflowWrap = 'anywhere'; td.style.fontSize = '48px'; return td.textContent; })(document.querySelector(${JSON.stringify(selector)}))`;
