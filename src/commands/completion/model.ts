// The command tree flattened for shell completion: for every command path, its
// subcommands, flags (its own and the global ones) and positional values. The three
// script generators (bash, zsh, fish) render this one model.
import { globalOptions, helpOption, PROFILE_FLAG, versionOption } from '../globals.js';
import { HELP_COMMAND, helpTopics } from '../help-topics.js';
import { flagNames, takesValue } from '../option-spec.js';
import type { CommandSpec, OptionSpec } from '../spec.js';

/** How the value of a flag or argument completes. */
export type Values = { kind: 'none' } | { kind: 'words'; words: readonly string[] } | { kind: 'files' } | { kind: 'profiles' } | { kind: 'any' };

export interface Flag {
  /** e.g. ['-o', '--output'] */
  names: string[];
  description: string;
  /** Takes a value (`--flag <v>`); the completion of that value. */
  value?: Values;
}

export interface Word {
  name: string;
  description: string;
}

export interface Node {
  /** Space-separated command path; '' is the program itself. */
  path: string;
  subcommands: Word[];
  flags: Flag[];
  /** What a positional argument completes to (leaves). */
  args: Values;
}

export interface Model {
  program: string;
  nodes: Node[];
  /** Every flag name that takes a value, anywhere: the walkers skip the word after them. */
  valueFlags: string[];
}

function toFlag(spec: OptionSpec): Flag {
  const names = flagNames(spec);
  if (!takesValue(spec)) return { names, description: spec.description };
  let value: Values = { kind: 'any' };
  if (spec.choices ?? spec.completions) value = { kind: 'words', words: spec.choices ?? spec.completions ?? [] };
  else if (spec.file) value = { kind: 'files' };
  else if (names.includes(PROFILE_FLAG)) value = { kind: 'profiles' };
  return { names, description: spec.description, value };
}

function argValues(spec: CommandSpec): Values {
  const arg = spec.args?.[0];
  if (!arg) return { kind: 'none' };
  if (arg.choices) return { kind: 'words', words: arg.choices };
  if (arg.name === 'file') return { kind: 'files' };
  return { kind: 'any' };
}

export function buildModel(tree: readonly CommandSpec[], program = 'platform'): Model {
  const globals = [...globalOptions.filter((o) => !o.hidden).map(toFlag), toFlag(helpOption)];
  const nodes: Node[] = [];
  const visible = (specs: readonly CommandSpec[] | undefined) => (specs ?? []).filter((s) => !s.hidden);
  const words = (specs: readonly CommandSpec[]) => specs.flatMap((s) => [s.name, ...(s.aliases ?? [])].map((name) => ({ name, description: s.summary })));

  const visit = (spec: CommandSpec, path: string) => {
    const children = visible(spec.subcommands);
    const own = (spec.options ?? []).filter((o) => !o.hidden).map(toFlag);
    nodes.push({ path, subcommands: words(children), flags: [...own, ...globals], args: argValues(spec) });
    // Hidden commands are not offered, but their own values still complete (e.g. __complete).
    for (const child of spec.subcommands ?? []) visit(child, `${path} ${child.name}`.trim());
  };
  const top = visible(tree);
  nodes.push({
    path: '',
    subcommands: [...words(top), { name: HELP_COMMAND.name, description: HELP_COMMAND.summary }],
    flags: [...globals, toFlag(versionOption)],
    args: { kind: 'none' },
  });
  for (const spec of tree) visit(spec, spec.name);
  // `platform help <command|topic>`
  nodes.push({
    path: HELP_COMMAND.name,
    subcommands: [],
    flags: globals,
    args: { kind: 'words', words: [...top.map((s) => s.name), ...helpTopics.map((t) => t.name)] },
  });

  const valueFlags = new Map<string, boolean>();
  for (const node of nodes) {
    for (const flag of node.flags) {
      for (const name of flag.names) {
        const takes = flag.value !== undefined;
        if (valueFlags.has(name) && valueFlags.get(name) !== takes) {
          throw new Error(`${name} takes a value in some commands and not in others: the completion walkers cannot tell them apart`);
        }
        valueFlags.set(name, takes);
      }
    }
  }
  return {
    program,
    nodes,
    valueFlags: [...valueFlags]
      .filter(([, takes]) => takes)
      .map(([name]) => name)
      .sort(),
  };
}
