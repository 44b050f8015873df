// How --help reads: commands first, then arguments and flags, the global flags named once
// in two lines (in full: `platform help globals`), then examples wrapped to the width. gh's
// shape: a group's help is its commands, and every help fits a screen of 80 by 60.
import { Help, type Command, type Option } from 'commander';
import { globalOptions, helpOption } from '../globals.js';
import { HELP_COMMAND, helpTopics } from '../help-topics.js';
import { GLOBALS_TOPIC } from './globals.js';

/** Commander's long form of a flag, without its argument: `-o, --output <format>` -> `-o/--output`. */
function flagName(flags: string): string {
  return flags
    .split(/[ ,]+/)
    .filter((part) => part.startsWith('-'))
    .join('/');
}

/** The global flags, by name only, for every help but the program's (which lists them whole). */
export function globalFlagsPointer(width: number): string {
  const names = [...globalOptions.filter((o) => !o.hidden), helpOption].map((o) => flagName(o.flags));
  const help = new Help();
  const line = help.boxWrap(names.join(', '), width - 2).replace(/\n/g, '\n  ');
  return `Global flags (in full: platform help ${GLOBALS_TOPIC}):\n  ${line}`;
}

/**
 * A flag's description with its choices and default, shorter than commander's
 * `(choices: "active", "paused", default: "daily")`: `(active|paused; default: daily)`.
 */
export function optionDescription(option: Option): string {
  const extra: string[] = [];
  // Long choices (report types) are listed with spaces, so that they wrap.
  if (option.argChoices) extra.push(option.argChoices.join('|').length > 24 ? option.argChoices.join(', ') : option.argChoices.join('|'));
  const showDefault = option.required || option.optional || (option.isBoolean() && typeof option.defaultValue === 'boolean');
  if (option.defaultValue !== undefined && showDefault) {
    extra.push(`default: ${option.defaultValueDescription ?? String(option.defaultValue as string | number | boolean)}`);
  }
  if (!extra.length) return option.description;
  // `(max 1000)` and `(default: 500)` as one parenthesis.
  if (option.description.endsWith(')')) return `${option.description.slice(0, -1)}; ${extra.join('; ')})`;
  return `${option.description} (${extra.join('; ')})`;
}

/**
 * The whole help of a command. Commander's order (usage, description, arguments, options,
 * commands) put a group's commands under its flags; here they come first, as in gh.
 */
export function formatHelp(cmd: Command, helper: Help): string {
  const width = helper.helpWidth ?? 80;
  // One long flag (`--webhook-basic-auth <user:password>`) would squeeze every description
  // into a narrow column, wrapped over more lines: past about a third of the width, a term
  // goes on a line of its own, its description under the others.
  const cap = Math.max(16, Math.floor(width * 0.36));
  const terms = [
    ...helper.visibleCommands(cmd).map((sub) => helper.subcommandTerm(sub)),
    ...helper.visibleArguments(cmd).map((arg) => helper.argumentTerm(arg)),
    ...helper.visibleOptions(cmd).map((option) => helper.optionTerm(option)),
  ];
  const termWidth = Math.max(0, ...terms.map((term) => term.length).filter((length) => length <= cap));
  const item = (term: string, description: string) =>
    term.length <= termWidth ? helper.formatItem(term, termWidth, description, helper) : `  ${term}\n${helper.formatItem('', termWidth, description, helper)}`;
  const isProgram = !cmd.parent;
  let output = [`Usage: ${helper.commandUsage(cmd)}`, ''];
  const description = helper.commandDescription(cmd);
  if (description) output.push(helper.boxWrap(description, width), '');
  const commands = helper.visibleCommands(cmd).map((sub) => item(helper.subcommandTerm(sub), helper.subcommandDescription(sub)));
  output = output.concat(helper.formatItemList('Commands:', commands, helper));
  const args = helper.visibleArguments(cmd).map((arg) => item(helper.argumentTerm(arg), helper.argumentDescription(arg)));
  output = output.concat(helper.formatItemList('Arguments:', args, helper));
  // -h, --help is named with the global flags, but on the program's help, which lists them all.
  const ownOptions = helper.visibleOptions(cmd).filter((option) => isProgram || option.long !== '--help');
  const options = ownOptions.map((option) => item(helper.optionTerm(option), helper.optionDescription(option)));
  if (isProgram) {
    const topics = helpTopics.map((topic) => item(topic.name, topic.summary));
    output = output.concat(helper.formatItemList(`Help topics (platform ${HELP_COMMAND.name} TOPIC):`, topics, helper));
  }
  output = output.concat(helper.formatItemList(isProgram ? 'Global flags:' : 'Flags:', options, helper));
  if (!isProgram) output.push(globalFlagsPointer(width), '');
  return output.join('\n');
}

/** Tokens of a shell line, quoted strings kept whole. */
function shellTokens(line: string): string[] {
  return line.match(/(?:[^\s'"]+|'[^']*'|"(?:[^"\\]|\\.)*")+/g) ?? [];
}

/**
 * An example as lines of at most `width` columns, to copy whole: a long one goes on over
 * lines ending in ` \`, broken between words, a flag kept with its value; a comment
 * goes on the line above.
 */
export function exampleLines(example: string, width: number): string[] {
  const comment = /\s+# (.*)$/.exec(example);
  const commandLine = comment ? example.slice(0, comment.index) : example;
  const lines = comment ? [`  # ${comment[1]}`] : [];
  if (`  $ ${commandLine}`.length <= width) return [...lines, `  $ ${commandLine}`];
  // Chunks that stay on one line: a flag and its value; any other word alone.
  const chunks: string[] = [];
  let flag = false;
  for (const token of shellTokens(commandLine)) {
    if (flag && !token.startsWith('-')) {
      chunks[chunks.length - 1] += ` ${token}`;
      flag = false;
    } else {
      chunks.push(token);
      flag = token.startsWith('-');
    }
  }
  let current = '  $';
  const continuation = '     ';
  for (const chunk of chunks) {
    // Room for a trailing ` \` after it.
    if (current !== '  $' && current !== continuation && `${current} ${chunk}`.length > width - 2) {
      lines.push(`${current} \\`);
      current = continuation;
    }
    current = `${current} ${chunk}`;
  }
  lines.push(current);
  return lines;
}

/** The "Examples:" section of a help. */
export function examplesText(examples: readonly string[] | undefined, width: number): string {
  if (!examples?.length) return '';
  return `\nExamples:\n${examples.flatMap((e) => exampleLines(e, width)).join('\n')}\n`;
}

/**
 * Text wrapped to a width as commander wraps help: a line's continuation goes under its
 * text, after the term (`  --flag VALUE   description`), the list mark (`  - `) or the
 * indent it starts with. Help topics write each paragraph and item as one line.
 */
export function wrapText(text: string, width: number): string {
  const help = new Help();
  // As the commands' help (cli.ts): wrapped in a narrow pane too.
  help.minWidthToWrap = 20;
  return text
    .split('\n')
    .map((line) => {
      if (line.length <= width) return line;
      const indent = /^ *(?:- |\S+(?: \S+)* {2,})| */.exec(line)![0].length;
      return line.slice(0, indent) + help.boxWrap(line.slice(indent), width - indent).replace(/\n/g, `\n${' '.repeat(indent)}`);
    })
    .join('\n');
}
