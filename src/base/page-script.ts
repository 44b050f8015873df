// The script of a browser page (the webhook inbox, the sandbox console): typed TypeScript
// under a `browser/` folder, bundled for the DOM by esbuild. `npm run build` writes each to
// dist/NAME.js beside the CLI's bundle, which reads it from there. Run from source (the
// tests, without a build) there is no such file, and the page's source is bundled on first
// request with esbuild's API, a devDependency the built CLI never loads.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

export interface PageScriptSource {
  /** The bundle's file name in dist/, e.g. `inbox-page.js`. */
  built: string;
  /** The entry point's source, as a URL relative to the server module that serves it. */
  source: URL;
  /** The serving module's import.meta.url: in the build, a file of dist/. */
  from: string;
}

/** How a page's script is bundled from source; the `build` script of package.json passes the same flags to esbuild. */
export const PAGE_BUNDLE_OPTIONS = { bundle: true, format: 'iife', platform: 'browser', target: 'es2022', minify: true, legalComments: 'none' } as const;

/** The page's script: the built file when there is one, else its source bundled now. */
export async function loadPageScript(s: PageScriptSource): Promise<string> {
  const built = fileURLToPath(new URL(`./${s.built}`, s.from));
  if (fs.existsSync(built)) return fs.readFileSync(built, 'utf8');
  const entry = fileURLToPath(s.source);
  if (!fs.existsSync(entry)) throw new Error(`the page script ${s.built} is missing from the build: run npm run build`);
  const { build } = await import('esbuild');
  const result = await build({ ...PAGE_BUNDLE_OPTIONS, entryPoints: [entry], write: false, logLevel: 'silent' });
  return result.outputFiles[0]!.text;
}

/** Loads a page's script once, on first request (the serving object keeps it). */
export function pageScriptOnce(s: PageScriptSource): () => Promise<string> {
  let loading: Promise<string> | undefined;
  return () => {
    if (!loading) {
      loading = loadPageScript(s);
      // A failed load is tried again at the next request, not remembered.
      loading.catch(() => (loading = undefined));
    }
    return loading;
  };
}
