// npm run mutate [-- --report FILE] [--list] [--keep] [--render REPORT]: a mutation check of src/bulk and the
// webhook signature code. Each mutant (curated.mjs, plus a seeded sample of generate.mjs's
// operator mutants) is applied to a throwaway git worktree of HEAD under the temporary
// directory, never to this checkout; the tests that exercise its file (targets.mjs) run
// against it, and it is killed, survived, timeout or build-error. A survivor that tsc
// rejects counts as killed by the typecheck (CI runs it). Not part of npm test.
//   --same-as REPORT     the mutants of an earlier report that HEAD still has (a before/after pair)
//   MUTATE_FILTER=regex  only mutants whose id, place or description match
//   MUTATE_LIMIT=N       mutants in all (default 60; curated ones first)
//   MUTATE_SEED=N        which generated mutants are sampled (default 1)
//   MUTATE_TIMEOUT=S     seconds for one mutant's tests (default 90)
//   MUTATE_TYPECHECK=0   do not run tsc on survivors
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { CURATED } from './curated.mjs';
import { EXPLAINED } from './explained.mjs';
import { generateMutants, sample } from './generate.mjs';
import { MUTATED, testsFor } from './targets.mjs';

const checkout = path.resolve(import.meta.dirname, '../..');
const argv = process.argv.slice(2);
const flag = (name) => argv.includes(name);
const sameAs = argv.includes('--same-as') ? path.resolve(argv[argv.indexOf('--same-as') + 1] ?? '') : undefined;
const reportFile = argv.includes('--report') ? path.resolve(argv[argv.indexOf('--report') + 1] ?? '') : undefined;
const filter = process.env.MUTATE_FILTER ? new RegExp(process.env.MUTATE_FILTER) : undefined;
const limit = Number(process.env.MUTATE_LIMIT) || 60;
const seed = Number(process.env.MUTATE_SEED) || 1;
const timeoutMs = (Number(process.env.MUTATE_TIMEOUT) || 90) * 1000;
const typecheck = process.env.MUTATE_TYPECHECK !== '0';
/** Files that get two generated mutants per round of the sample: where a slip loses or repeats writes. */
const WEIGHTY = /\/(merge|runner|journal|diff|resume-check|row-mapping|signature|hmac)\.ts$/;

const log = (line) => process.stderr.write(`${line}\n`);

function git(...args) {
  const result = spawnSync('git', ['-C', checkout, ...args], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`git ${args.join(' ')}: ${result.stderr.trim()}`);
  return result.stdout.trim();
}

/** A detached worktree of HEAD with the checkout's node_modules (or a fresh npm ci). */
function makeWorktree() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-mutation-'));
  const tree = path.join(dir, 'tree');
  git('worktree', 'add', '--detach', tree, 'HEAD');
  const modules = path.join(checkout, 'node_modules');
  if (fs.existsSync(modules)) fs.symlinkSync(modules, path.join(tree, 'node_modules'), 'dir');
  else run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], tree, 600_000);
  return { dir, tree, remove: () => (git('worktree', 'remove', '--force', tree), fs.rmSync(dir, { recursive: true, force: true })) };
}

/** Runs a command in its own process group; kills the group at the time limit. */
function run(command, args, cwd, ms) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, detached: true, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, FORCE_COLOR: '0' } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }, ms);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, timedOut, output });
    });
  });
}

/** vitest over `files`, stopping at the first failure; the failed tests' names from its JSON report. */
async function vitest(tree, files, ms, bail = true) {
  const out = path.join(path.dirname(tree), `vitest-${process.hrtime.bigint()}.json`);
  // The dot reporter's text names an unhandled error, which fails a run without failing a test.
  const args = ['run', ...(bail ? ['--bail=1'] : []), '--reporter=json', `--outputFile.json=${out}`, '--reporter=dot', ...files];
  const result = await run(path.join(tree, 'node_modules/.bin/vitest'), args, tree, ms);
  let failed = [];
  try {
    const report = JSON.parse(fs.readFileSync(out, 'utf8'));
    for (const file of report.testResults ?? []) {
      const name = path.relative(tree, file.name);
      const tests = (file.assertionResults ?? []).filter((t) => t.status === 'failed').map((t) => `${name} > ${t.fullName}`);
      failed.push(...(tests.length ? tests : file.status === 'failed' ? [`${name} (suite: ${String(file.message).split('\n')[0].slice(0, 100)})`] : []));
    }
    fs.rmSync(out, { force: true });
  } catch {
    failed = [];
  }
  if (!failed.length && result.code !== 0 && !result.timedOut)
    failed = [unhandled(result.output) ?? `vitest exited ${result.code}: ${lastLine(result.output)}`];
  return { ...result, failed };
}

const lastLine = (text) =>
  text
    .trim()
    .split('\n')
    .filter((line) => /error|Error|fail/.test(line))
    .slice(-1)[0]
    ?.trim()
    .slice(0, 160) ?? '';

/** `unhandled Rejection in test/x.test.ts: Error: ...`, from vitest's report of an error outside any test. */
function unhandled(output) {
  const lines = output.split('\n').map((line) => line.trim());
  const at = lines.findIndex((line) => /Unhandled (Rejection|Error)/.test(line));
  if (at < 0) return undefined;
  const error = lines.slice(at + 1).find((line) => /\w*Error\b/.test(line)) ?? '';
  const origin = lines
    .slice(at)
    .find((line) => /originated in/.test(line))
    ?.match(/"([^"]+)"/)?.[1];
  return `unhandled ${/Rejection/.test(lines[at]) ? 'rejection' : 'error'}${origin ? ` in ${origin}` : ''}: ${error.slice(0, 120)}`;
}

function locate(text, find) {
  const at = text.indexOf(find);
  if (at < 0 || text.indexOf(find, at + 1) >= 0) return undefined;
  return { start: at, end: at + find.length, line: text.slice(0, at).split('\n').length };
}

/** The curated mutants that apply to this HEAD, then the sampled generated ones. */
function mutantsOf(tree) {
  const texts = new Map();
  const textOf = (file) => texts.get(file) ?? texts.set(file, fs.readFileSync(path.join(tree, file), 'utf8')).get(file);
  const mutants = [];
  for (const c of CURATED) {
    const text = fs.existsSync(path.join(tree, c.file)) ? textOf(c.file) : '';
    const places = (c.edits ?? [c]).map(({ find, replace }) => ({ ...locate(text, find), replacement: replace }));
    mutants.push(
      places.every((place) => place.start !== undefined)
        ? { id: c.id, file: c.file, line: places[0].line, edits: places, kind: 'curated', description: c.description }
        : {
            id: c.id,
            file: c.file,
            line: 0,
            kind: 'curated',
            description: c.description,
            result: 'not-applicable',
            killedBy: 'its text is not in HEAD (rewritten?)',
          },
    );
  }
  const sources = git('-C', tree, 'ls-files', 'src')
    .split('\n')
    .filter((file) => MUTATED.test(file));
  const candidates = sources.flatMap((file) => generateMutants(file, textOf(file)));
  for (const m of candidates) m.id = `${path.posix.basename(m.file)}:${m.line}:${m.column}/${m.kind}`;
  const wanted = (m) => !filter || filter.test(`${m.id} ${m.file}:${m.line} ${m.description}`);
  const curated = mutants.filter(wanted);
  if (sameAs) {
    // The mutants of an earlier report that still exist: the same curated ids, the same file and description.
    const earlier = JSON.parse(fs.readFileSync(sameAs, 'utf8')).mutants;
    const again = (m) =>
      earlier.some((e) => (m.kind === 'curated' ? e.id === m.id : e.kind !== 'curated' && e.file === m.file && e.description === m.description));
    const generated = earlier
      .filter((e) => e.kind !== 'curated')
      .map((e) => candidates.find((m) => again(m) && m.file === e.file && m.description === e.description));
    return { mutants: [...curated.filter(again), ...generated.filter(Boolean)], candidates: candidates.length, texts };
  }
  const generated = sample(candidates.filter(wanted), Math.max(0, limit - curated.length), seed, (file) => (WEIGHTY.test(file) ? 2 : 1));
  return { mutants: [...curated, ...generated].slice(0, limit), candidates: candidates.length, texts };
}

async function testMutant(tree, mutant, original, broken) {
  const { files: all, needsBuild } = testsFor(tree, mutant.file);
  const files = all.filter((file) => !broken.includes(file));
  const target = path.join(tree, mutant.file);
  const edits = [...(mutant.edits ?? [mutant])].sort((a, b) => b.start - a.start);
  fs.writeFileSync(
    target,
    edits.reduce((text, edit) => text.slice(0, edit.start) + edit.replacement + text.slice(edit.end), original),
  );
  const started = Date.now();
  try {
    if (needsBuild) {
      const build = await run('npm', ['run', 'build', '--silent'], tree, 120_000);
      if (build.code !== 0) return { result: 'build-error', killedBy: lastLine(build.output) || 'npm run build failed' };
    }
    const tests = await vitest(tree, files, timeoutMs);
    if (tests.timedOut) return { result: 'timeout', killedBy: `no verdict in ${timeoutMs / 1000} s` };
    if (tests.failed.length) return { result: 'killed', killedBy: tests.failed[0] };
    if (typecheck) {
      const tsc = await run(path.join(tree, 'node_modules/.bin/tsc'), ['--noEmit', '-p', '.'], tree, 120_000);
      const error = tsc.output.split('\n').find((line) => /error TS\d+/.test(line));
      if (tsc.code !== 0) return { result: 'killed', killedBy: `tsc: ${error?.trim().slice(0, 140) ?? 'failed'}` };
    }
    return { result: 'survived', killedBy: '' };
  } finally {
    fs.writeFileSync(target, original);
    mutant.seconds = Math.round((Date.now() - started) / 100) / 10;
    mutant.tests = files;
  }
}

function table(mutants) {
  const rows = mutants.map((m) => [m.id, `${m.file}:${m.line}`, m.description, m.result, m.killedBy ?? '']);
  const header = ['mutant', 'place', 'description', 'result', 'killed by'];
  const cut = (text, n) => (text.length > n ? `${text.slice(0, n - 1)}…` : text);
  const widths = [44, 30, 70, 14, 90];
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, i) => cut(String(cell), widths[i]).padEnd(widths[i]))
        .join(' | ')
        .trimEnd(),
    )
    .join('\n');
}

/** Each survivor's reason from explained.mjs, if it has one. */
function explain(report) {
  for (const m of report.mutants.filter((m) => m.result === 'survived')) {
    m.explained = EXPLAINED.find((e) => (e.id ? e.id === m.id : e.file === m.file && e.description === m.description))?.why;
  }
}

/** The table, the counts and the survivors with their reasons. */
function summary(report) {
  const survivors = report.mutants.filter((m) => m.result === 'survived');
  const counts = Object.entries(report.counts).map(([k, v]) => `${v} ${k}`);
  const lines = survivors.map((m) => `  ${m.id}  ${m.file}:${m.line}  ${m.description}\n      ${m.explained ?? 'NOT EXPLAINED: wants a test'}`);
  return [
    `${table(report.mutants)}\n`,
    `HEAD ${report.head}; ${report.mutants.length} mutants in ${report.seconds} s: ${counts.join(', ')}`,
    ...(report.brokenOnHead?.length ? [`left out (failing on unmutated HEAD): ${report.brokenOnHead.join(', ')}`] : []),
    `survivors (${survivors.length}, ${survivors.filter((m) => !m.explained).length} without an explanation in explained.mjs):`,
    ...lines,
    '',
  ].join('\n');
}

async function main() {
  // --render REPORT: the summary of an earlier run's report, with today's explanations.
  if (flag('--render')) {
    const report = JSON.parse(fs.readFileSync(argv[argv.indexOf('--render') + 1], 'utf8'));
    explain(report);
    process.stdout.write(summary(report));
    return;
  }
  const started = Date.now();
  const head = git('rev-parse', 'HEAD');
  const work = makeWorktree();
  const cleanUp = () => {
    if (flag('--keep')) log(`worktree kept: ${work.tree}`);
    else work.remove();
  };
  process.once('SIGINT', () => (cleanUp(), process.exit(130)));
  try {
    const { mutants, candidates, texts } = mutantsOf(work.tree);
    log(`HEAD ${head.slice(0, 12)}; ${candidates} generated candidates; ${mutants.length} mutants (seed ${seed})`);
    if (flag('--list')) {
      for (const m of mutants) process.stdout.write(`${m.id}\t${m.file}:${m.line}\t${m.description}\t${testsFor(work.tree, m.file).files.join(' ')}\n`);
      return;
    }
    // The suite must pass on HEAD first: a test that fails there kills every mutant for nothing.
    const allTests = [...new Set(mutants.flatMap((m) => testsFor(work.tree, m.file).files))].sort();
    log(`baseline: ${allTests.length} test files on unmutated HEAD`);
    await run('npm', ['run', 'build', '--silent'], work.tree, 120_000);
    let baseline = await vitest(work.tree, allTests, 600_000, false);
    if (baseline.code !== 0) {
      // Once more for the files that failed: a loaded machine can fail a test that passes alone.
      const files = [...new Set(baseline.failed.map((name) => name.split(' ')[0]).filter((file) => allTests.includes(file)))];
      log(`baseline failed in ${files.join(', ') || '?'}; once more`);
      if (files.length) baseline = await vitest(work.tree, files, 600_000, false);
    }
    // A file that fails on HEAD cannot judge a mutant: it is left out, and the report names it.
    const broken = [...new Set(baseline.code === 0 ? [] : baseline.failed.map((name) => name.split(' ')[0]))];
    if (broken.some((file) => !allTests.includes(file))) {
      log(`the tests fail on unmutated HEAD, so no mutant can be judged:\n  ${baseline.failed.join('\n  ')}`);
      process.exitCode = 1;
      return;
    }
    if (broken.length) log(`left out, failing on unmutated HEAD:\n  ${baseline.failed.join('\n  ')}`);
    for (const [i, mutant] of mutants.entries()) {
      if (!mutant.result) Object.assign(mutant, await testMutant(work.tree, mutant, texts.get(mutant.file), broken));
      log(`[${i + 1}/${mutants.length}] ${mutant.result.padEnd(14)} ${mutant.id} (${mutant.seconds ?? 0} s) ${mutant.killedBy ?? ''}`);
    }
    const counts = {};
    for (const m of mutants) counts[m.result] = (counts[m.result] ?? 0) + 1;
    const strip = ({ start: _s, end: _e, edits: _x, replacement: _r, ...m }) => m;
    const seconds = Math.round((Date.now() - started) / 1000);
    const report = {
      head,
      seed,
      limit,
      filter: process.env.MUTATE_FILTER ?? null,
      seconds,
      counts,
      candidates,
      brokenOnHead: broken,
      mutants: mutants.map(strip),
    };
    explain(report);
    process.stdout.write(summary(report));
    if (reportFile) {
      fs.writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
      log(`report: ${reportFile}`);
    }
  } finally {
    cleanUp();
  }
}

await main();
