// Builds the commander program from the declarative command tree and runs one command line.
// Imports nothing heavy: command modules load with `await import` when their command runs.
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Context } from './context.js';
import { errorLine, exitCodeFor, EXIT, UsageError } from './errors.js';
import { createFactory, type FactoryDeps } from './factory.js';
import { globalOptions, versionOption } from './commands/globals.js';
import { HELP_COMMAND, helpTopicsText } from './commands/help-topics.js';
import { helpRequest } from './commands/help-request.js';
import { commandTree } from './commands/tree.js';
import type { CommandSpec, OptionSpec } from './commands/spec.js';

const parsers = {
  int: (value: string) => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('must be a whole number.');
    return Number(value);
  },
  number: (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('must be a number.');
    return n;
  },
  list: (value: string, previous: string[] | undefined) => [...(previous ?? []), ...value.split(',').map((s) => s.trim()).filter(Boolean)],
  repeat: (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
};

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  if (spec.choices) option.choices(spec.choices);
  if (spec.kind === 'int') option.argParser(parsers.int);
  if (spec.kind === 'number') option.argParser(parsers.number);
  if (spec.kind === 'list') option.argParser(parsers.list);
  if (spec.kind === 'repeat') option.argParser(parsers.repeat);
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.required) option.makeOptionMandatory();
  if (spec.hidden) option.hideHelp();
  return option;
}

/** Commander wraps descriptions itself: join hard-wrapped lines, keep blank lines between paragraphs. */
function paragraphs(text: string): string {
  return text.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
}

export function examplesText(spec: CommandSpec): string {
  if (!spec.examples?.length) return '';
  return `\nExamples:\n${spec.examples.map((e) => `  $ ${e}`).join('\n')}\n`;
}

function addCommand(parent: Command, spec: CommandSpec, ctx: Context, exitCode: { value: number }): void {
  const command = parent.command(spec.name, { hidden: spec.hidden }).summary(spec.summary).description(paragraphs(spec.description ?? spec.summary));
  for (const alias of spec.aliases ?? []) command.alias(alias);
  for (const arg of spec.args ?? []) {
    const name = arg.variadic ? `${arg.name}...` : arg.name;
    const argument = new Argument(arg.required ? `<${name}>` : `[${name}]`, arg.description);
    if (arg.choices) argument.choices(arg.choices);
    command.addArgument(argument);
  }
  for (const option of spec.options ?? []) command.addOption(toOption(option));
  command.addHelpText('after', `${spec.details ? `\n${spec.details}\n` : ''}${examplesText(spec)}`);
  configure(command, ctx);
  if (spec.subcommands) {
    for (const child of spec.subcommands) addCommand(command, child, ctx, exitCode);
    return;
  }
  command.action(async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    const args = cmd.args;
    const module = await spec.load!();
    const code = await module.run(ctx, cmd.opts(), args);
    exitCode.value = code ?? EXIT.ok;
  });
}

/** What follows a usage error (unknown command or flag, missing flag or argument): the usage line. */
function usageAfterError(command: Command): string {
  const usage = command.createHelp().commandUsage(command);
  const name = usage.replace(/ \[options\].*$| <.*$| \[.*$/, '');
  return `Usage: ${usage}\nRun \`${name} --help\` for its flags and examples.\n`;
}

function configure(command: Command, ctx: Context): void {
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (text) => ctx.io.stdout.write(text),
      writeErr: (text) => ctx.io.stderr.write(text),
      outputError: (text, write) => write(`${text}${usageAfterError(command)}`),
    });
}

export function buildProgram(ctx: Context, version: string, exitCode: { value: number }): Command {
  const program = new Command('platform')
    .description('Work with the Platform Ads, Rider and Webhooks APIs, or their local sandbox, from the command line.')
    .version(version, versionOption.flags, versionOption.description);
  for (const option of globalOptions) program.addOption(toOption(option));
  configure(program, ctx);
  program.addHelpText('after', examplesText({
    name: 'platform',
    summary: '',
    examples: [
      'platform sandbox serve',
      'platform ads campaigns list --account a087eaf3-00b3-49c9-8706-c4ebfb2627fd',
      'platform ads campaigns patch --account ACCOUNT --campaign-id ID --status paused',
    ],
  }));
  program.addHelpText('after', helpTopicsText());
  program.hook('preAction', () => {
    const opts = program.opts<{ profile?: string; output?: Context['globals']['output']; json?: boolean; color: boolean; debug?: boolean }>();
    ctx.globals.profile = opts.profile;
    ctx.globals.output = opts.json ? 'json' : opts.output;
    ctx.globals.debug = Boolean(opts.debug);
    const forced = ctx.env.CLICOLOR_FORCE !== undefined && ctx.env.CLICOLOR_FORCE !== '0';
    ctx.globals.color = opts.color !== false && !ctx.env.NO_COLOR && (ctx.io.stdoutIsTTY || forced);
  });
  for (const spec of commandTree) addCommand(program, spec, ctx, exitCode);
  // Only the program's help command takes a path and topics (runCli handles them); set
  // after the subcommands, which keep commander's own `help [command]`.
  program.helpCommand(`${HELP_COMMAND.name} [command...]`, HELP_COMMAND.summary);
  return program;
}

/** Runs one command line and returns the exit code; never exits the process. */
export async function runCli(argv: string[], deps: FactoryDeps): Promise<number> {
  const factory = createFactory(deps);
  const { ctx } = factory;
  const exitCode = { value: EXIT.ok };
  try {
    const help = helpRequest(argv, commandTree);
    if (help && 'topic' in help) {
      ctx.io.stdout.write(help.topic.text());
      return EXIT.ok;
    }
    const program = buildProgram(ctx, deps.version, exitCode);
    await program.parseAsync(help?.argv ?? argv, { from: 'user' });
    return exitCode.value;
  } catch (error) {
    return reportError(ctx, error);
  } finally {
    await factory.close();
  }
}

function reportError(ctx: Context, error: unknown): number {
  if (error instanceof CommanderError) {
    if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) return EXIT.ok;
    // Commander has already printed its one-line message (and a suggestion for typos).
    if (error.code === 'commander.executeSubCommandAsync') return EXIT.failure;
    return EXIT.usage;
  }
  if (ctx.signal.aborted && !(error instanceof UsageError)) {
    ctx.io.stderr.write('interrupted\n');
    return EXIT.interrupted;
  }
  ctx.io.stderr.write(`${errorLine(error)}\n`);
  if (error instanceof UsageError && error.usage) ctx.io.stderr.write(`${error.usage}\n`);
  if (ctx.globals.debug && error instanceof Error && error.stack) ctx.io.stderr.write(`${error.stack}\n`);
  return exitCodeFor(error);
}
