#!/usr/bin/env node
// `npm run bench [-- NAME ...]`: builds the CLI once, then runs every test/bench/*.bench.mjs
// (or only those whose file name contains one of the NAMEs), one after another, each in its
// own process so that one benchmark's servers and memory do not disturb the next.
//
// To add a benchmark, drop a `<topic>.bench.mjs` file here. It runs with the repository as
// its working directory, may use ./lib.mjs (interleaved timing, medians, ratio tables, a
// sandbox on a free port), prints its own table, and exits non-zero only when it could not
// measure (not when a figure misses its target: benchmarks report, tests never time).
// BENCH_RUNS sets the number of timed runs per command where a benchmark supports it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const here = import.meta.dirname;
const root = path.resolve(here, '../..');
const filters = process.argv.slice(2);
const files = fs
  .readdirSync(here)
  .filter((name) => name.endsWith('.bench.mjs'))
  .filter((name) => filters.length === 0 || filters.some((f) => name.includes(f)))
  .sort();
if (files.length === 0) {
  console.error(`no benchmark matches ${filters.join(' ')}`);
  process.exit(2);
}

const build = spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = 0;
for (const file of files) {
  console.log(`\n== ${file}`);
  const result = spawnSync(process.execPath, [path.join(here, file)], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    failed++;
    console.error(`${file} exited ${result.status ?? result.signal}`);
  }
}
process.exit(failed ? 1 : 0);
