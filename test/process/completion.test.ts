// Shell completion: generated from the command tree, checked in real shells.
import { commandTree } from '../../src/commands/tree.js';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPLETION_FILES, completionScript, SHELLS } from '../../src/commands/completion/scripts.js';
import type { Sandbox } from '../../src/sandbox/index.js';
import { sandboxOnFreePort, tempDir, TestUser } from '../helpers/cli.js';
import { systemTool } from '../helpers/system-tools.js';

const zsh = systemTool('zsh');
const fish = systemTool('fish');

const root = path.resolve(import.meta.dirname, '../..');
let sandbox: Sandbox;
let user: TestUser;
let dir: string;

beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox);
  dir = tempDir();
  for (const shell of SHELLS) fs.writeFileSync(path.join(dir, COMPLETION_FILES[shell]), completionScript(shell, commandTree));
});
afterAll(() => sandbox.close());

/** Runs a shell on a script (the zsh and fish tests run only where systemTool found the shell). */
function shell(name: 'bash' | 'zsh' | 'fish', args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(name, args, { encoding: 'utf8', cwd: dir, env: { PATH: process.env.PATH, HOME: dir } });
  const error: NodeJS.ErrnoException | undefined = result.error;
  if (error?.code === 'ENOENT') throw new Error(`${name} is not installed: apt-get install -y ${name}`);
  return result;
}

/** What bash's completion function offers for a command line; the last word is the one being completed. */
function bashOffers(words: string[], prelude = ''): string[] {
  const script = [
    `source ${JSON.stringify(path.join(dir, COMPLETION_FILES.bash))}`,
    prelude,
    `COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')})`,
    `COMP_CWORD=${words.length - 1}`,
    'COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}',
    '_platform',
    'printf "%s\\n" "${COMPREPLY[@]}"',
  ].join('\n');
  const result = shell('bash', ['-c', script]);
  expect(result.stderr).toBe('');
  return result.stdout.split('\n').filter(Boolean);
}

describe('completion scripts', () => {
  it.each(SHELLS)('completions/%s is up to date (regenerate with `npm run completions`)', (name) => {
    const file = path.join(root, 'completions', COMPLETION_FILES[name]);
    expect(fs.existsSync(file), `${file} is missing: run npm run completions`).toBe(true);
    expect(fs.readFileSync(file, 'utf8'), `completions/${COMPLETION_FILES[name]} is out of date: run npm run completions`).toBe(
      completionScript(name, commandTree),
    );
  });

  it.each(SHELLS)('platform completion %s prints the script', async (name) => {
    const result = await user.run(['completion', name]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(completionScript(name, commandTree));
  });

  it('platform completion with an unknown shell is a usage error', async () => {
    const result = await user.run(['completion', 'powershell']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/bash, zsh, fish/);
  });

  it('bash accepts its script (bash -n)', () => {
    const result = shell('bash', ['-n', COMPLETION_FILES.bash]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });

  it.skipIf(!zsh.present || !fish.present)(`zsh and fish accept their scripts (zsh -n, fish -n)${zsh.skipNote}${fish.skipNote}`, () => {
    for (const [name, file] of [
      ['zsh', COMPLETION_FILES.zsh],
      ['fish', COMPLETION_FILES.fish],
    ] as const) {
      const result = shell(name, ['-n', file]);
      expect(result.stderr, name).toBe('');
      expect(result.status, name).toBe(0);
    }
  });
});

describe('bash completion', () => {
  it('completes subcommands: platform ads ca<TAB>', () => {
    expect(bashOffers(['platform', 'ads', 'ca'])).toEqual(['campaigns']);
    expect(bashOffers(['platform', ''])).toEqual(['sandbox', 'auth', 'config', 'ads', 'rider', 'delivery', 'webhooks', 'api', 'mcp', 'completion', 'help']);
    expect(bashOffers(['platform', 'ads', 'campaigns', ''])).toEqual(['list', 'view', 'create', 'patch']);
  });

  it('completes flags, with the global ones: platform ads campaigns list --o<TAB>', () => {
    expect(bashOffers(['platform', 'ads', 'campaigns', 'list', '--o'])).toEqual(['--output']);
    const all = bashOffers(['platform', 'ads', 'campaigns', 'list', '--']);
    expect(all).toEqual(expect.arrayContaining(['--account', '--all', '--limit', '--page-token', '--profile', '--json', '--debug', '--help']));
    // A list's --status filters it (#43); a write's flags are not a list's.
    expect(all).toContain('--status');
    expect(all).not.toContain('--budget');
  });

  it('completes enum values: --output <TAB>, --output=<TAB>, --status <TAB>', () => {
    expect(bashOffers(['platform', 'ads', 'campaigns', 'list', '--output', ''])).toEqual(['table', 'wide', 'json', 'ndjson', 'csv', 'text']);
    // bash splits --output=j at the = (COMP_WORDBREAKS).
    expect(bashOffers(['platform', 'ads', 'campaigns', 'list', '--output', '=', 'j'])).toEqual(['json']);
    expect(bashOffers(['platform', 'ads', 'campaigns', 'list', '-o', 'n'])).toEqual(['ndjson']);
    expect(bashOffers(['platform', 'ads', 'campaigns', 'create', '--status', ''])).toEqual(['active', 'paused']);
    expect(bashOffers(['platform', 'completion', ''])).toEqual(['bash', 'zsh', 'fish']);
  });

  it('skips flags and their values when finding the command', () => {
    expect(bashOffers(['platform', '--profile', 'prod', '-o', 'json', 'ads', '--debug', 'ca'])).toEqual(['campaigns']);
    expect(bashOffers(['platform', 'ads', 'campaigns', 'list', '--account', 'X', ''])).toEqual([]);
  });

  it('completes file names for file flags, and help topics', () => {
    fs.writeFileSync(path.join(dir, 'rows.csv'), '');
    expect(bashOffers(['platform', 'webhooks', 'sign', 'rows.'])).toEqual(['rows.csv']);
    expect(bashOffers(['platform', 'help', 'e'])).toEqual(['exit-codes', 'environment']);
  });

  it('completes profile names from `platform __complete profiles`', () => {
    // A stand-in for the installed CLI, as the script calls it at completion time.
    expect(bashOffers(['platform', '--profile', 'p'], 'platform() { [[ "$*" == "__complete profiles" ]] && printf "local\\nprod\\npreview\\n"; }')).toEqual([
      'prod',
      'preview',
    ]);
  });
});

describe('platform __complete profiles', () => {
  it('lists the profile names of the config, one a line', async () => {
    const fresh = new TestUser(sandbox);
    fresh.writeConfig({ profiles: { prod: { base_url: 'https://api.example.com', client_id: 'abc' } } });
    const result = await fresh.run(['__complete', 'profiles']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe('local\nprod\n');
  });

  it('is hidden from --help', async () => {
    expect((await user.run(['--help'])).stdout).not.toContain('__complete');
  });
});

describe.skipIf(!zsh.present)(`zsh completion${zsh.skipNote}`, () => {
  it('walks the command line as bash does (completion builtins stubbed, the script is real)', () => {
    const stubs = [
      'compdef() { : }',
      `source ${COMPLETION_FILES.zsh}`,
      '_describe() { local name=${@[-1]}; local -a arr; arr=("${(@P)name}"); print -r -- "${(@)arr%%:*}" }',
      'compadd() { [[ $1 == -- ]] && shift; print -r -- "$*" }',
      '_files() { print -r -- FILES }',
      'compset() { : }',
      't() { words=("$@"); CURRENT=${#words}; _platform }',
    ].join('\n');
    const run = (line: string) => shell('zsh', ['-f', '-c', `${stubs}\n${line}`]).stdout.trim();
    expect(run("t platform ads ''")).toBe('accounts stores campaigns ad-groups ads apply runs reports products');
    expect(run("t platform --profile x ads campaigns list --output ''")).toBe('table wide json ndjson csv text');
    expect(run('t platform ads campaigns list --output=j')).toBe('table wide json ndjson csv text');
    expect(run('t platform ads campaigns list --o').split(' ')).toEqual(expect.arrayContaining(['--account', '--output']));
    expect(run("t platform webhooks verify ''")).toBe('FILES');
  });
});

describe.skipIf(!fish.present)(`fish completion${fish.skipNote}`, () => {
  it('offers what complete -C asks for', () => {
    const offers = (line: string) =>
      shell('fish', ['--no-config', '-c', `source ${COMPLETION_FILES.fish}; complete -C ${JSON.stringify(line)}`])
        .stdout.split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    expect(offers('platform ads ca')).toEqual(['campaigns']);
    expect(offers('platform ads campaigns list --o')).toContain('--output');
    expect(offers('platform -o json ads campaigns list --output ').sort()).toEqual(['csv', 'json', 'ndjson', 'table', 'text', 'wide']);
    expect(offers('platform ads campaigns create --status ').sort()).toEqual(['active', 'paused']);
  });
});
