// The import graph of src, read twice: from esbuild's metafile (runtime imports, static and
// dynamic; type-only imports are erased) and from the TypeScript source (every import,
// `import type` included). No runtime cycles, and no import of either kind from a higher
// layer than the importer's, in the order CONTRIBUTING.md gives.
import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';
import { scaled } from '../helpers/time-scale.js';

const root = path.resolve(import.meta.dirname, '../..');

/** Layers, top first. A module may import its own layer's modules and any lower layer's. */
const LAYERS: Array<[string, RegExp]> = [
  ['main', /^src\/main\.ts$/],
  ['cli', /^src\/cli\.ts$/],
  ['factory', /^src\/factory\.ts$/],
  ['commands', /^src\/commands\//],
  ['mcp', /^src\/mcp\//],
  ['context', /^src\/context\.ts$/],
  ['sandbox', /^src\/sandbox\//],
  ['output', /^src\/output\//],
  ['bulk', /^src\/bulk\//],
  ['api', /^src\/api\//],
  ['auth', /^src\/auth\//],
  ['webhooks', /^src\/webhooks\//],
  ['http', /^src\/http\//],
  ['config', /^src\/config\//],
  ['base', /^src\/(base|schemas)\//],
];

function layerOf(file: string): number {
  const index = LAYERS.findIndex(([, pattern]) => pattern.test(file));
  if (index < 0) throw new Error(`${file} is in no layer: add it to LAYERS (and to CONTRIBUTING.md)`);
  return index;
}

let graph: Map<string, string[]>;

/** Every relative import of each .ts file under src, type-only ones included, as repository paths. */
function sourceGraph(): Map<string, string[]> {
  const files = (fs.readdirSync(path.join(root, 'src'), { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts'))
    .map((f) => `src/${f.split(path.sep).join('/')}`);
  return new Map(
    files.map((file) => {
      const { importedFiles } = ts.preProcessFile(fs.readFileSync(path.join(root, file), 'utf8'), true, true);
      const targets = importedFiles
        .map((i) => i.fileName)
        .filter((name) => name.startsWith('.'))
        .map((name) => path.posix.join(path.posix.dirname(file), name).replace(/\.js$/, '.ts'));
      return [file, targets];
    }),
  );
}

beforeAll(async () => {
  const result = await build({
    entryPoints: [path.join(root, 'src/main.ts'), path.join(root, 'src/sandbox/index.ts')],
    absWorkingDir: root,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    packages: 'external',
    outdir: path.join(root, '.tmp/layers'),
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  graph = new Map();
  for (const [file, input] of Object.entries(result.metafile.inputs)) {
    if (!file.startsWith('src/')) continue;
    graph.set(
      file,
      input.imports.map((i) => i.path).filter((p) => p.startsWith('src/')),
    );
  }
}, scaled(60_000));

describe('structure of src', () => {
  it('reads the whole tree', () => {
    expect(graph.size).toBeGreaterThan(100);
  });

  it('has no import cycle', () => {
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (file: string, trail: string[]) => {
      if (state.get(file) === 'done') return;
      if (state.get(file) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(file)), file].join(' -> '));
        return;
      }
      state.set(file, 'open');
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
      state.set(file, 'done');
    };
    for (const file of graph.keys()) visit(file, []);
    expect(cycles).toEqual([]);
  });

  it('imports only from its own layer or lower ones, at run time and in types', () => {
    const types = sourceGraph();
    expect(types.size).toBeGreaterThanOrEqual(graph.size);
    const upward: string[] = [];
    for (const [file, imports] of [...graph, ...types]) {
      for (const target of imports) {
        const line = `${file} (${LAYERS[layerOf(file)]![0]}) imports ${target} (${LAYERS[layerOf(target)]![0]})`;
        if (layerOf(target) < layerOf(file) && !upward.includes(line)) upward.push(line);
      }
    }
    expect(upward).toEqual([]);
  });
});
