// `platform [global flags] help [words...]`: commander's own help command shows only one
// level and knows no topics, so runCli answers it first, from the command tree.
import { globalOptions } from './globals.js';
import { HELP_COMMAND, helpTopics, type HelpTopic } from './help-topics.js';
import { flagNames, takesValue } from './option-spec.js';
import type { CommandSpec } from './spec.js';

/** A topic to print, or the command line to run instead (`ads campaigns --help`). */
export type HelpRequest = { topic: HelpTopic } | { argv: string[] };

const globalValueFlags = new Set(globalOptions.filter(takesValue).flatMap(flagNames));

/** Undefined when argv is no `help` with words (commander handles a bare `platform help`). */
export function helpRequest(argv: readonly string[], tree: readonly CommandSpec[]): HelpRequest | undefined {
  let i = 0;
  while (i < argv.length && argv[i]!.startsWith('-')) i += globalValueFlags.has(argv[i]!) ? 2 : 1;
  if (argv[i] !== HELP_COMMAND.name || i === argv.length - 1) return undefined;
  const before = argv.slice(0, i);
  const words = argv.slice(i + 1);
  const topic = words.length === 1 ? helpTopics.find((t) => t.name === words[0]) : undefined;
  if (topic) return { topic };
  let specs: readonly CommandSpec[] | undefined = tree;
  for (const word of words) {
    if (!specs?.length) break; // a leaf: the rest would be its arguments
    const spec: CommandSpec | undefined = specs.find((s) => s.name === word || s.aliases?.includes(word));
    // Not a command: run the words without --help, so commander names the unknown command
    // and suggests the closest one (a group has no action, so nothing runs).
    if (!spec) return { argv: [...before, ...words] };
    specs = spec.subcommands;
  }
  return { argv: [...before, ...words, '--help'] };
}
