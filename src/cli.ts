// Builds the commander program from the declarative command tree and runs one command line.
// Imports nothing heavy: command modules load with `await import` when their command runs.
import { setMaxListeners } from 'node:events';
import { Argument, Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import type { Context } from './context.js';
import { OUTPUT_FORMATS, type GlobalOptions, type IO } from './base/io.js';
import { idProblem } from './schemas/ids.js';
import { escapeControls, forStream } from './output/terminal-text.js';
import { exitCodeFor, EXIT, InterruptedError, PartialFailureError, UsageError } from './base/errors.js';
import { startFactory, type Factory, type FactoryDeps } from './factory.js';
import { terminalColumns } from './output/format.js';
import { colourWanted } from './output/colour.js';
import { accessibleAsked } from './config/accessible.js';
import { DELIMITER_CHOICES, delimiterOf, type CsvDialect } from './base/csv-dialect.js';
import { globalOptions, versionOption } from './commands/globals.js';
import { HELP_COMMAND } from './commands/help-topics.js';
import { examplesText, formatHelp, optionDescription, wrapText } from './commands/help/format.js';
import { helpRequest } from './commands/help-request.js';
import { jsonFields, jsonFlagArgv } from './commands/json-flag.js';
import { errorLineOf, oneLine } from './commands/error-line.js';
import { commandTree } from './commands/tree.js';
import type { CommandSpec, OptionSpec } from './commands/spec.js';

const parsers: {
  int: (value: string) => number;
  number: (value: string) => number;
  id: (value: string) => string;
  ids: (value: string, previous: string[] | undefined) => string[];
  list: (value: string, previous: string[] | undefined) => string[];
  repeat: (value: string, previous: string[] | undefined) => string[];
} = {
  int: (value: string) => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError('must be a whole number.');
    return Number(value);
  },
  number: (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('must be a number.');
    return n;
  },
  id: (value: string) => {
    const problem = idProblem(value);
    if (problem) throw new InvalidArgumentError(`the id ${problem}.`);
    return value;
  },
  ids: (value: string, previous: string[] | undefined) => parsers.list(value, previous).map((id) => parsers.id(id)),
  list: (value: string, previous: string[] | undefined): string[] => [
    ...(previous ?? []),
    ...value
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  ],
  repeat: (value: string, previous: string[] | undefined) => [...(previous ?? []), value],
};

type ArgParser = (value: string, previous: unknown) => unknown;

/**
 * Every value a flag takes must say something: `--budget ''` (an unset shell variable) was
 * silently the same as no --budget. Checked before the flag's own parser, for every flag.
 */
function notEmpty(parse: ArgParser): ArgParser {
  return (value, previous) => {
    if (value.trim() === '') throw new InvalidArgumentError('must not be empty.');
    return parse(value, previous);
  };
}

const KIND_PARSERS: Partial<Record<NonNullable<OptionSpec['kind']>, ArgParser>> = {
  int: parsers.int,
  number: parsers.number,
  list: (value, previous) => parsers.list(value, previous as string[] | undefined),
  repeat: (value, previous) => parsers.repeat(value, previous as string[] | undefined),
  id: parsers.id,
  ids: (value, previous) => parsers.ids(value, previous as string[] | undefined),
};

function toOption(spec: OptionSpec): Option {
  const option = new Option(spec.flags, spec.description);
  // Commander's own check of choices already refuses an empty value, naming the choices.
  if (spec.choices) option.choices(spec.choices);
  else if (option.required || option.optional) option.argParser(notEmpty(KIND_PARSERS[spec.kind ?? 'string'] ?? ((value: string) => value)));
  if (spec.default !== undefined) option.default(spec.default);
  if (spec.hidden) option.hideHelp();
  return option;
}

/** Commander wraps descriptions itself: join hard-wrapped lines, keep blank lines between paragraphs. */
function paragraphs(text: string): string {
  return text.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
}

/** The context of the command being run: built once the global flags are parsed, never changed after. */
type ContextOf = () => Context;

function addCommand(parent: Command, spec: CommandSpec, io: IO, contextOf: ContextOf, argv: readonly string[]): void {
  const command = parent
    .command(spec.name, { hidden: spec.hidden })
    .summary(spec.summary)
    .description(paragraphs(spec.description ?? spec.summary));
  for (const alias of spec.aliases ?? []) command.alias(alias);
  for (const arg of spec.args ?? []) {
    const name = arg.variadic ? `${arg.name}...` : arg.name;
    const argument = new Argument(arg.required ? `<${name}>` : `[${name}]`, arg.description);
    if (arg.choices) argument.choices(arg.choices);
    if (arg.id) argument.argParser(parsers.id);
    command.addArgument(argument);
  }
  const required: Option[] = [];
  for (const spec_ of spec.options ?? []) {
    const option = toOption(spec_);
    command.addOption(option);
    if (spec_.required) required.push(option);
  }
  const width = io.columns ?? 80;
  command.addHelpText('after', `${spec.details ? `\n${wrapText(spec.details, width)}\n` : ''}${examplesText(spec.examples, width)}`);
  configure(command, io);
  for (const child of spec.subcommands ?? []) addCommand(command, child, io, contextOf, argv);
  const { load } = spec;
  if (!load) return;
  command.action(async (...params: unknown[]) => {
    const cmd = params[params.length - 1] as Command;
    // Required options are checked here, after commander has reported unknown options: a
    // typo (--acount) is named with its suggestion rather than as a missing --account.
    const missing = required.find((option) => cmd.getOptionValue(option.attributeName()) === undefined);
    if (missing) cmd.error(`error: required option '${missing.flags}' not specified`, { exitCode: EXIT.usage, code: 'commander.missingMandatoryOptionValue' });
    const module = await load();
    // The spec typed these flags for the module (src/commands/spec.ts); commander parsed them from it.
    // With its parents' too: commander lets a parent take a flag both know (`rider request get
    // ID --wait` sets request's --wait); the command's own value wins where both are set.
    await module.run(contextOf(), cmd.optsWithGlobals<never>(), cmd.args, { tree: commandTree, argv });
  });
}

/** What follows a usage error (unknown command or flag, missing flag or argument): the usage line. */
function usageAfterError(command: Command): string {
  const usage = command.createHelp().commandUsage(command);
  const name = usage.replace(/ \[options\].*$| <.*$| \[.*$/, '');
  return `Usage: ${usage}\nRun \`${name} --help\` for its flags and examples.\n`;
}

function configure(command: Command, io: IO): void {
  command
    .exitOverride()
    .showSuggestionAfterError(true)
    .configureHelp({
      // Named once in two lines instead (commands/help/format.ts); in full: `platform help globals`.
      showGlobalOptions: false,
      sortSubcommands: false,
      formatHelp,
      optionDescription,
      // Wrapped on a narrow terminal (a split pane) too: commander stops under 40 columns of text.
      minWidthToWrap: 20,
      // A command's name and arguments, without commander's "[options]": the longest
      // (`api <method-or-path> [path]`) then leaves room at 80 columns to wrap the summaries.
      subcommandTerm: (cmd) =>
        [
          cmd.name(),
          ...cmd.registeredArguments.map((arg) =>
            arg.required ? `<${arg.name()}${arg.variadic ? '...' : ''}>` : `[${arg.name()}${arg.variadic ? '...' : ''}]`,
          ),
        ].join(' '),
    })
    .configureOutput({
      writeOut: (text) => io.stdout.write(text),
      writeErr: (text) => io.stderr.write(text),
      // The terminal's width as the factory read it (80 off a terminal, as commander has it).
      getOutHelpWidth: () => io.columns ?? 80,
      getErrHelpWidth: () => io.columns ?? 80,
      // Commander echoes the offending value: escape what could drive the terminal. Its
      // suggestion ("(Did you mean --account?)") joins the error's one line, before the usage.
      outputError: (text, write) => write(`${escapeControls(oneLine(text.trimEnd()))}\n${usageAfterError(command)}`),
    });
}

/**
 * The program for one command line. `start` builds the command's context from the parsed
 * global flags (once, in the preAction hook); commands get that context, which nothing
 * changes afterwards.
 */
export function buildProgram(
  terminal: IO,
  env: FactoryDeps['env'],
  start: (globals: GlobalOptions) => Context | Promise<Context>,
  version: string,
  argv: readonly string[] = [],
): Command {
  // Help is as wide as the tables: $COLUMNS, else the terminal's.
  const io: IO = { ...terminal, columns: terminalColumns(env, terminal.columns) };
  let ctx: Context | undefined;
  const contextOf: ContextOf = () => {
    if (!ctx) throw new Error('a command ran before its global flags were parsed');
    return ctx;
  };
  const program = new Command('platform')
    .description('Work with the Platform Ads, Rider and Webhooks APIs, or their local sandbox, from the command line.')
    .version(version, versionOption.flags, versionOption.description);
  // -o is checked in preAction rather than by commander, so that a bad value is reported with
  // the usage of the command it was given to, not the program's.
  for (const option of globalOptions) program.addOption(toOption(option.choices === OUTPUT_FORMATS ? { ...option, choices: undefined } : option));
  configure(program, io);
  program.addHelpText(
    'after',
    examplesText(
      [
        'platform sandbox serve',
        'platform ads campaigns list --account a087eaf3-00b3-49c9-8706-c4ebfb2627fd',
        'platform ads campaigns patch --account ACCOUNT --campaign-id ID --status paused',
      ],
      io.columns ?? 80,
    ),
  );
  program.hook('preAction', async (_program, actionCommand) => {
    const opts = program.opts<{
      profile?: string;
      output?: Context['globals']['output'];
      json?: boolean | string;
      color: boolean;
      debug?: boolean;
      query?: string;
      safeCsv?: boolean;
      caFile?: string;
      accessible?: boolean;
      delimiter?: string;
      decimalComma?: boolean;
    }>();
    if (opts.output !== undefined && !OUTPUT_FORMATS.includes(opts.output)) {
      actionCommand.error(
        `error: option '-o, --output <format>' argument '${String(opts.output)}' is invalid. Allowed choices are ${OUTPUT_FORMATS.join(', ')}.`,
        {
          exitCode: EXIT.usage,
          code: 'commander.invalidArgument',
        },
      );
    }
    if (opts.query !== undefined) {
      const { queryProblem } = await import('./output/query.js');
      const problem = await queryProblem(opts.query);
      if (problem) actionCommand.error(`error: --query: ${problem}`, { exitCode: EXIT.usage, code: 'commander.invalidArgument' });
    }
    const csv = csvFlags(opts, actionCommand.opts<{ fromCsv?: string }>().fromCsv !== undefined);
    if (typeof csv === 'string') return actionCommand.error(`error: ${csv}`, { exitCode: EXIT.usage, code: 'commander.invalidArgument' });
    ctx = await start({
      profile: opts.profile,
      output: opts.json ? 'json' : opts.output,
      debug: Boolean(opts.debug),
      safeCsv: Boolean(opts.safeCsv),
      csv,
      caFile: opts.caFile,
      query: opts.query,
      fields: jsonFields(opts.json),
      color: colourWanted(opts.color !== false, env, io.stdoutIsTTY),
      accessible: accessibleAsked(opts.accessible, env),
    });
  });
  for (const spec of commandTree) addCommand(program, spec, io, contextOf, argv);
  // Only the program's help command takes a path and topics (runCli handles them); set
  // after the subcommands, which keep commander's own `help [command]`.
  program.helpCommand(`${HELP_COMMAND.name} [command...]`, HELP_COMMAND.summary);
  return program;
}

/**
 * --delimiter and --decimal-comma as the dialect they ask for, or the problem with them: a bad
 * separator, or neither -o csv nor --from-csv for them to apply to (a flag is never ignored).
 */
function csvFlags(
  opts: { delimiter?: string; decimalComma?: boolean; output?: string; json?: boolean | string },
  readsCsv: boolean,
): CsvDialect | string | undefined {
  if (opts.delimiter === undefined && !opts.decimalComma) return undefined;
  const given = [...(opts.delimiter === undefined ? [] : ['--delimiter']), ...(opts.decimalComma ? ['--decimal-comma'] : [])].join(' and ');
  if (!readsCsv && (opts.json || opts.output !== 'csv')) return `${given}: only with -o csv or --from-csv (the CSV they shape)`;
  const delimiter = opts.delimiter === undefined ? undefined : delimiterOf(opts.delimiter);
  if (opts.delimiter !== undefined && !delimiter) return `--delimiter: ${JSON.stringify(opts.delimiter)} is not ${DELIMITER_CHOICES}`;
  return { ...(delimiter ? { delimiter } : {}), ...(opts.decimalComma ? { decimalComma: true } : {}) };
}

/** Runs one command line and returns the exit code; never exits the process. */
export async function runCli(argv: string[], deps: FactoryDeps): Promise<number> {
  // Every request and back-off sleep of a command listens to this one signal: up to 16 of
  // each at once (--concurrency, --id look-ups). Node warns past 10 as if it were a leak.
  setMaxListeners(64, deps.signal);
  let factory: Factory | undefined;
  try {
    const help = helpRequest(argv, commandTree);
    if (help && 'topic' in help) {
      deps.io.stdout.write(wrapText(help.topic.text(), terminalColumns(deps.env, deps.io.columns) ?? 80));
      return EXIT.ok;
    }
    const program = buildProgram(deps.io, deps.env, async (globals) => (factory = await startFactory(deps, globals)).ctx, deps.version, argv);
    await program.parseAsync(jsonFlagArgv(help?.argv ?? argv, commandTree), { from: 'user' });
    return EXIT.ok;
  } catch (error) {
    // Through the context's streams: a progress bar still drawn is erased before the error line.
    return reportError({ ...deps, io: factory?.ctx.io ?? deps.io }, factory?.ctx.globals.debug ?? false, error, factory?.clientProfile());
  } finally {
    await factory?.close();
  }
}

function reportError({ io, signal }: Pick<FactoryDeps, 'io' | 'signal'>, debug: boolean, error: unknown, profile: string | undefined): number {
  if (error instanceof CommanderError) {
    if (['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code)) return EXIT.ok;
    // Commander has already printed its one-line message (and a suggestion for typos).
    if (error.code === 'commander.executeSubCommandAsync') return EXIT.failure;
    return EXIT.usage;
  }
  // A stop that came after the last batch leaves a run that finished: its own result stands.
  if (error instanceof InterruptedError || (signal.aborted && !(error instanceof UsageError || error instanceof PartialFailureError))) {
    // An interrupt may say what is left to do (a ride still running, a run to resume).
    io.stderr.write(`${error instanceof InterruptedError ? error.message : 'interrupted'}\n`);
    return EXIT.interrupted;
  }
  // One line, whatever the message holds (a server's message with line breaks in it), with the profile and advice.
  const line = errorLineOf(error, profile);
  // A partial failure has reported each item already; its message may be empty.
  if (line) io.stderr.write(`${forStream(line, io.stderrIsTTY)}\n`);
  if (error instanceof UsageError && error.usage) io.stderr.write(`${error.usage}\n`);
  if (debug && error instanceof Error && error.stack) io.stderr.write(`${error.stack}\n`);
  return exitCodeFor(error);
}
