import { defineConfig } from 'tsup';

// One ESM bundle with code splitting: `await import()` of a command or a heavy package
// becomes its own chunk, loaded only when used, and no per-file module resolution is paid.
export default defineConfig({
  entry: { main: 'src/main.ts' },
  format: 'esm',
  platform: 'node',
  target: 'node20',
  outDir: 'dist',
  splitting: true,
  clean: true,
  sourcemap: false,
  dts: false,
  // Bundle dependencies too, except `open`, which looks for its xdg-open next to its own file.
  noExternal: [/^(?!open$).*/],
  external: ['open'],
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
});
