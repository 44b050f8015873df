// --help of every command, the help topics, and usage errors (exit 2). How long and wide each
// help is: help-fits.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandTree } from '../../../src/commands/tree.js';
import type { Sandbox } from '../../../src/sandbox/index.js';
import { sandboxOnFreePort, TestUser } from '../../helpers/cli.js';
import { visibleCommands } from '../../helpers/command-tree.js';

let sandbox: Sandbox;
let user: TestUser;

beforeAll(async () => {
  sandbox = await sandboxOnFreePort();
  user = new TestUser(sandbox);
});
afterAll(() => sandbox.close());

const commands = visibleCommands;

describe('--help', () => {
  it.each(commands(commandTree).map((c) => [c.path.join(' '), c] as const))(
    'platform %s --help: description, flags with choices and defaults, >= 2 examples, the global flags by name',
    async (_name, { path, spec }) => {
      const result = await user.run([...path, '--help']);
      expect(result.code).toBe(0);
      expect(result.stderr).toBe('');
      // Commander re-wraps text to the terminal width: compare words, not line breaks.
      const words = (text: string) => text.replace(/\s+/g, ' ');
      const help = words(result.stdout);
      expect(help).toContain(`Usage: platform ${path.join(' ')}`);
      expect(help).toContain(words(spec.description ?? spec.summary));
      const examples = result.stdout.split('\nExamples:\n')[1] ?? '';
      expect(result.stdout).toContain('\nExamples:\n');
      expect(examples.split('\n').filter((line) => line.startsWith('  $ ')).length).toBeGreaterThanOrEqual(2);
      for (const option of spec.options ?? []) {
        if (option.hidden) continue;
        const long = option.flags.split(/[ ,]+/).find((part) => part.startsWith('--'))!;
        expect(help).toContain(long);
        if (option.choices) expect(help).toMatch(new RegExp(`(\\(|; )${option.choices.join('(\\||, )')}[;)]`));
        if (option.default !== undefined) expect(help).toContain(`default: ${String(option.default)}`);
      }
      // The global flags are named, not described: `platform help globals` has them in full.
      expect(help).toContain('Global flags (in full: platform help globals): --profile, -o/--output, --json');
      expect(help).not.toContain('-o, --output <format>');
    },
  );

  it('$COLUMNS, as for tables, down to a narrow pane: the flags, commands and examples wrap', async () => {
    const narrow = await user.run(['ads', 'campaigns', 'patch', '--help'], { env: { COLUMNS: '60' } });
    expect(Math.max(...narrow.stdout.split('\n').map((line) => line.length))).toBeLessThanOrEqual(60);
    // A long example goes on over lines ending in a backslash, to paste whole.
    expect(narrow.stdout).toMatch(/^ {2}\$ platform ads campaigns patch.* \\\n {6}--/m);
  });

  it("platform help <command...> shows that command's help; platform help alone the program's", async () => {
    const nested = await user.run(['help', 'ads', 'campaigns', 'list']);
    expect(nested.code).toBe(0);
    expect(nested.stdout).toContain('Usage: platform ads campaigns list');
    const top = await user.run(['help']);
    expect(top.code).toBe(0);
    expect(top.stdout).toContain('Usage: platform [options] [command]');
    expect(top.stdout).toMatch(/^Help topics \(platform help TOPIC\):\n {2}globals /m);
    expect(top.stdout).toMatch(/^ {2}exit-codes /m);
  });

  it('platform help after global flags, and with a mistyped command, which it names (exit 2)', async () => {
    const topic = await user.run(['--no-color', '-o', 'json', 'help', 'environment']);
    expect(topic.code).toBe(0);
    expect(topic.stdout).toContain('PLATFORM_PROFILE');
    const nested = await user.run(['--profile', 'local', 'help', 'ads', 'campaigns']);
    expect(nested.stdout).toContain('Usage: platform ads campaigns [options] [command]');
    const typo = await user.run(['help', 'ads', 'campain']);
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    expect(typo.stderr).toContain('(Did you mean campaigns?)');
    expect((await user.run(['help', 'nosuch'])).code).toBe(2);
  });

  it('platform help exit-codes lists every exit code', async () => {
    const result = await user.run(['help', 'exit-codes']);
    expect(result.code).toBe(0);
    for (const [code, word] of [
      ['0', 'success'],
      ['1', 'failure'],
      ['2', 'usage'],
      ['4', 'authentication'],
      ['130', 'interrupted'],
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^ +${code} +${word}`, 'm'));
    }
  });

  it('platform help environment lists every environment variable', async () => {
    const result = await user.run(['help', 'environment']);
    expect(result.code).toBe(0);
    for (const name of [
      'PLATFORM_PROFILE',
      'PLATFORM_TOKEN',
      'PLATFORM_CLIENT_ID',
      'PLATFORM_CLIENT_SECRET',
      'PLATFORM_WEBHOOK_SECRET',
      'PLATFORM_BASE_URL',
      'NO_COLOR',
      'CLICOLOR_FORCE',
      'PLATFORM_CONFIG_DIR',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^ +${name} `, 'm'));
    }
  });
});

describe('usage errors exit 2', () => {
  it.each([
    [['ads', 'campain', 'list'], 'campaigns', 'platform ads'],
    [['ad', 'campaigns', 'list'], 'ads', 'platform'],
    [['ads', 'campaigns', 'lst'], 'list', 'platform ads campaigns'],
    [['webhooks', 'verfy'], 'verify', 'platform webhooks'],
  ])('a mistyped command (%j) suggests the closest one', async (args, suggestion, usage) => {
    const result = await user.run(args);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`unknown command '`);
    expect(result.stderr).toContain(`(Did you mean ${suggestion}?)`);
    expect(result.stderr).toContain(`Usage: ${usage} [options] [command]`);
  });

  it('a mistyped flag suggests the closest one', async () => {
    const result = await user.run(['ads', 'campaigns', 'list', '--account', 'X', '--al']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('(Did you mean --all?)');
  });

  it('a missing required flag is named, with the usage line', async () => {
    const result = await user.run(['ads', 'ad-groups', 'list', '--account', 'X']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines[0]).toBe("error: required option '--campaign <id>' not specified");
    expect(lines[1]).toBe('Usage: platform ads ad-groups list [options]');
  });

  it('a missing argument or a value outside the choices is named, with the usage line', async () => {
    const missing = await user.run(['completion']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("missing required argument 'shell'");
    expect(missing.stderr).toContain('Usage: platform completion [options] <shell>');
    const wrong = await user.run(['ads', 'campaigns', 'list', '--account', 'X', '-o', 'yaml']);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toMatch(/argument 'yaml' is invalid.*table, wide, json, ndjson, csv, text/);
  });
});
