// The declarative command spec: it drives commander, --help and shell completions, and
// types each command's flags. Specs are data: building them loads no command code.
//
// A command's flags type is derived from its options' flag strings (as wrangler's
// createCommand infers handler args): `--campaign-id <id>` gives `campaignId: string`, so a
// flag renamed in a spec fails to compile in the command that still reads the old name.
import type { Context } from '../context.js';

/**
 * list: comma-separated and repeatable; repeat: repeatable, each value whole; id: a value
 * that goes into a URL path (checked: not empty, `.`, `..`, control characters or too long);
 * ids: a list of those.
 */
export type OptionKind = 'string' | 'int' | 'number' | 'boolean' | 'list' | 'repeat' | 'id' | 'ids';

export interface OptionSpec {
  /** Commander flags, e.g. `-l, --limit <n>` or `--all`. */
  readonly flags: string;
  readonly description: string;
  readonly kind?: OptionKind;
  readonly required?: boolean;
  readonly default?: string | number | boolean;
  readonly choices?: readonly string[];
  /** Values shell completion offers without the parser enforcing them (the command checks, naming the flag). */
  readonly completions?: readonly string[];
  /** The option takes a file path (completions offer files). */
  readonly file?: boolean;
  readonly hidden?: boolean;
}

export interface ArgSpec {
  readonly name: string;
  readonly description: string;
  /** The argument goes into a URL path: checked like an `id` option. */
  readonly id?: boolean;
  readonly required?: boolean;
  readonly variadic?: boolean;
  readonly choices?: readonly string[];
}

/** What a command learns about how it was called, beyond its flags and arguments. */
export interface Invocation {
  /** The whole command tree (shell completion renders it). */
  tree: readonly CommandSpec[];
  /** The command line as given (after `platform`), e.g. for the command that resumes a run. */
  argv: readonly string[];
}

/** A command's code: it returns nothing and ends by throwing a typed error (src/base/errors.ts). */
export interface CommandModule<F = never> {
  run: (ctx: Context, flags: F, args: string[], invocation: Invocation) => Promise<void>;
}

export interface CommandSpec {
  readonly name: string;
  /** One line, shown in lists. */
  readonly summary: string;
  /** Longer help text shown above the options (commander wraps it: write paragraphs, not lines). */
  readonly description?: string;
  /** Text shown after the options exactly as written (tables such as CSV columns). */
  readonly details?: string;
  readonly aliases?: readonly string[];
  readonly args?: readonly ArgSpec[];
  readonly options?: readonly OptionSpec[];
  /** Real invocations shown under "Examples:". */
  readonly examples?: readonly string[];
  readonly subcommands?: readonly CommandSpec[];
  /** Loads the command's code; a spec with both load and subcommands runs it when no subcommand is named. */
  readonly load?: () => Promise<CommandModule<never>>;
  readonly hidden?: boolean;
}

// ---- Flags types from flag strings ----

type LongFlag<F extends string> = F extends `${string}--${infer Rest}` ? (Rest extends `${infer Name} ${string}` ? Name : Rest) : never;
type CamelCase<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelCase<Tail>>}` : S;
/** The key commander stores a flag under: `--page-limit` -> pageLimit, `--no-browser` -> browser. */
export type OptionKey<F extends string> = LongFlag<F> extends `no-${infer Name}` ? CamelCase<Name> : CamelCase<LongFlag<F>>;
type TakesValue<F extends string> = F extends `${string}<${string}>` | `${string}[${string}]` ? true : false;

type OptionValue<O extends OptionSpec> = O['kind'] extends 'int' | 'number'
  ? number
  : O['kind'] extends 'list' | 'repeat' | 'ids'
    ? string[]
    : TakesValue<O['flags']> extends true
      ? O['choices'] extends readonly (infer C extends string)[]
        ? C
        : string
      : boolean;

/** The keys of the options that are not a `--no-x`. */
type PositiveKeys<O extends OptionSpec> = O extends OptionSpec ? (LongFlag<O['flags']> extends `no-${string}` ? never : OptionKey<O['flags']>) : never;

/**
 * Always present: required, defaulted, or a lone negatable `--no-x` (commander: default
 * true). A pair `--x` + `--no-x` is not: given neither, the key is undefined ("unchanged").
 */
type AlwaysSet<O extends OptionSpec, Positive extends string> = O extends { required: true }
  ? true
  : O extends { default: string | number | boolean }
    ? true
    : LongFlag<O['flags']> extends `no-${string}`
      ? OptionKey<O['flags']> extends Positive
        ? false
        : true
      : false;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

/** The flags object commander hands a command whose options are `Options`. */
export type FlagsOf<Options extends readonly OptionSpec[]> = Simplify<
  { [O in Options[number] as AlwaysSet<O, PositiveKeys<Options[number]>> extends true ? OptionKey<O['flags']> : never]: OptionValue<O> } & {
    [O in Options[number] as AlwaysSet<O, PositiveKeys<Options[number]>> extends true ? never : OptionKey<O['flags']>]?: OptionValue<O>;
  }
>;

// ---- Builders that keep the literal types the flags type is derived from ----

/** One option, its flag string and choices kept literal. */
export function option<const O extends OptionSpec>(spec: O): O {
  return spec;
}

/** A list of options (spread shared groups into it), kept as a typed tuple. */
export function options<const T extends readonly OptionSpec[]>(...specs: T): T {
  return specs;
}

/** Omit over each member of a union (an array of options typed as a union of them). */
type WithoutDefault<O> = O extends unknown ? Omit<O, 'default'> : never;

/** The same options without defaults (a patch leaves unset fields unchanged). */
export function withoutDefaults<const T extends readonly OptionSpec[]>(specs: T): { [K in keyof T]: WithoutDefault<T[K]> } {
  return specs.map(({ default: _unused, ...rest }) => rest) as { [K in keyof T]: WithoutDefault<T[K]> };
}

/**
 * A runnable command: its options type the flags its module's `run` must accept, so a
 * module whose run expects a flag the spec does not give fails to compile.
 */
export function command<const O extends readonly OptionSpec[] = readonly []>(
  spec: Omit<CommandSpec, 'options' | 'load'> & { readonly options?: O; readonly load: () => Promise<CommandModule<FlagsOf<O>>> },
): CommandSpec {
  return spec;
}

/** A group of commands (no code of its own). */
export function group(spec: Omit<CommandSpec, 'load' | 'options' | 'args'> & { readonly subcommands: readonly CommandSpec[] }): CommandSpec {
  return spec;
}
