// The declarative command tree: it drives commander, --help and shell completions.
// Leaves name their module lazily, so building the tree loads no command code.
import type { Context } from '../context.js';

/** list: comma-separated and repeatable; repeat: repeatable, each value whole. */
export type OptionKind = 'string' | 'int' | 'number' | 'boolean' | 'list' | 'repeat';

export interface OptionSpec {
  /** Commander flags, e.g. `-l, --limit <n>` or `--all`. */
  flags: string;
  description: string;
  kind?: OptionKind;
  required?: boolean;
  default?: string | number | boolean;
  choices?: readonly string[];
  /** The option takes a file path (completions offer files). */
  file?: boolean;
  hidden?: boolean;
}

export interface ArgSpec {
  name: string;
  description: string;
  required?: boolean;
  variadic?: boolean;
  choices?: readonly string[];
}

export interface CommandModule {
  /**
   * Returns an exit code when it is not 0 (e.g. 1 for partial failure). Options arrive as
   * commander parsed them from the spec; each command declares their type itself.
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  run(ctx: Context, options: any, args: string[]): Promise<number | void>;
}

export interface CommandSpec {
  name: string;
  /** One line, shown in lists. */
  summary: string;
  /** Longer help text shown above the options (commander wraps it: write paragraphs, not lines). */
  description?: string;
  /** Text shown after the options exactly as written (tables such as CSV columns). */
  details?: string;
  aliases?: string[];
  args?: ArgSpec[];
  options?: OptionSpec[];
  /** Real invocations shown under "Examples:". */
  examples?: string[];
  subcommands?: CommandSpec[];
  load?: () => Promise<CommandModule>;
  hidden?: boolean;
}
