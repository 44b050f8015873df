// Help that fits: every command's and group's --help is a screen of 80 columns by 60 lines,
// commands first, the global flags named once; what a help leaves out is in a help topic it
// names, and every topic renders.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree } from '../../../src/commands/tree.js';
import { globalOptions } from '../../../src/commands/globals.js';
import { helpTopics } from '../../../src/commands/help-topics.js';
import type { CommandSpec } from '../../../src/commands/spec.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { visibleCommands } from '../../helpers/command-tree.js';

const WIDTH = 80;
const MAX_LINES = 60;

let sandbox: Sandbox;
let user: TestUser;

beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox);
});
afterAll(() => sandbox.close());

const commands = visibleCommands;

const everyHelp = [{ path: [] as string[], spec: undefined as CommandSpec | undefined }, ...commands(commandTree)];

/** The long form of each global flag, as a help line would start with it in full. */
const globalTerms = globalOptions.filter((o) => !o.hidden).map((o) => o.flags);

async function help(path: string[]): Promise<string> {
  const result = await user.run([...path, '--help'], { columns: WIDTH });
  expect(result.code).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe(`every --help fits ${WIDTH} columns by ${MAX_LINES} lines`, () => {
  it.each(everyHelp.map((c) => [c.path.join(' ') || '(the program)', c] as const))('platform %s --help', async (_name, { path, spec }) => {
    const text = await help(path);
    const lines = text.replace(/\n$/, '').split('\n');
    expect(lines.length, `${lines.length} lines:\n${text}`).toBeLessThanOrEqual(MAX_LINES);
    expect(lines.filter((line) => line.length > WIDTH)).toEqual([]);
    // With examples.
    expect(text).toMatch(/\nExamples:\n {2}[$#] /);
    // The global flags once: in full on the program's help, by name on every other.
    const fullLines = lines.filter((line) => globalTerms.some((term) => line.startsWith(`  ${term} `)));
    if (path.length === 0) expect(fullLines).toHaveLength(globalTerms.length);
    else {
      expect(fullLines).toEqual([]);
      expect(text).toContain('Global flags (in full: platform help globals):');
    }
    // A group's commands come first, before its flags (gh's order).
    if (spec?.subcommands?.length || path.length === 0) {
      const commandsAt = text.indexOf('\nCommands:\n');
      expect(commandsAt).toBeGreaterThan(0);
      expect(commandsAt).toBeLessThan(text.search(/\n(Flags|Global flags[^\n]*):\n/));
    }
  });

  it('every help topic a help names exists, and `platform help TOPIC` prints it', async () => {
    const named = new Set<string>();
    for (const { path } of everyHelp) {
      for (const match of (await help(path)).replace(/\s+/g, ' ').matchAll(/platform help ([a-z-]+)/g)) named.add(match[1]!);
    }
    const topics = helpTopics.map((t) => t.name);
    expect([...named].filter((name) => !topics.includes(name))).toEqual([]);
    // The topics the long explanations moved to are named by the commands they came from.
    expect([...named]).toEqual(expect.arrayContaining(['globals', 'bulk', 'patch', 'csv', 'plans', 'reports', 'webhook-events', 'local-sandbox', 'login']));
  });

  it('the longest explanations moved: no create explains patch semantics, apply and bulk commands point at their topics', async () => {
    const create = (await help(['ads', 'campaigns', 'create'])).replace(/\s+/g, ' ');
    expect(create).not.toContain('keeps its unit');
    expect(create).toContain('platform help bulk');
    expect(create).toContain('platform help csv');
    const patch = (await help(['ads', 'ad-groups', 'patch'])).replace(/\s+/g, ' ');
    expect(patch).toContain('platform help patch');
    expect(patch).not.toContain('CSV columns (--from-csv');
    expect((await help(['ads', 'apply'])).replace(/\s+/g, ' ')).toContain('platform help plans');
  });
});

describe('help topics', () => {
  it.each(helpTopics.map((t) => [t.name] as const))(`platform help %s renders within ${WIDTH} columns`, async (name) => {
    const result = await user.run(['help', name], { columns: WIDTH });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout.trim().split('\n').length).toBeGreaterThan(3);
    expect(result.stdout.split('\n').filter((line) => line.length > WIDTH)).toEqual([]);
  });

  it('no topic is named as a command: platform help NAME means one thing', () => {
    const names = new Set(commandTree.map((spec) => spec.name));
    expect(helpTopics.map((t) => t.name).filter((name) => names.has(name))).toEqual([]);
  });

  it('platform --help lists every topic', async () => {
    const text = await help([]);
    const section = text.split('\nHelp topics (platform help TOPIC):\n')[1]!.split('\n\n')[0]!;
    expect(section.split('\n').flatMap((line) => /^ {2}(\S+)/.exec(line)?.[1] ?? [])).toEqual(helpTopics.map((t) => t.name));
  });

  it('platform help globals has every global flag in full, with the output formats', async () => {
    const result = await user.run(['help', 'globals'], { columns: WIDTH });
    expect(result.code).toBe(0);
    for (const option of globalOptions.filter((o) => !o.hidden)) {
      expect(result.stdout).toMatch(new RegExp(`^ {2}${option.flags.replace(/[[\]]/g, '\\$&')} +\\S`, 'm'));
    }
    for (const format of ['table', 'wide', 'json', 'ndjson', 'csv', 'text']) expect(result.stdout).toMatch(new RegExp(`^ {2}${format} +\\S`, 'm'));
    // What the flags' one line leaves out is here.
    expect(result.stdout).toContain('PLATFORM_CA_FILE');
    expect(result.stdout).toContain('levels deep');
  });

  it('platform help csv has the CSV columns of campaigns, ad groups and ads, and the field flags in full', async () => {
    const result = await user.run(['help', 'csv'], { columns: WIDTH });
    for (const column of ['campaign_id', 'ad_group_id', 'ad_id', 'budget_unit', 'daypart', 'store_ids'])
      expect(result.stdout).toMatch(new RegExp(`^ {2}${column} +\\S`, 'm'));
    expect(result.stdout).toMatch(/^ {2}--budget +converted exactly/m);
  });

  it('a topic wraps to a narrow terminal, its items indented under their text', async () => {
    const result = await user.run(['help', 'bulk'], { env: { COLUMNS: '60' } });
    expect(result.stdout.split('\n').filter((line) => line.length > 60)).toEqual([]);
    expect(result.stdout).toMatch(/^ {2}--shard I\/N +take only shard I of N.*\n {4,}\S/m);
  });
});
