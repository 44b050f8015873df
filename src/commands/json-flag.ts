// `--json` alone is `-o json`; `--json FIELD,FIELD` (gh's habit) picks fields. Commander
// would take any word after an optional value as the value (`--json list`, `--json RUN`), so
// the command line is read first: the word after --json is its fields only when it reads as
// field names and is no subcommand or argument choice there; otherwise --json is moved where nothing
// follows it. `--json=FIELDS` is always fields. Plain data in, plain data out.
import type { CommandSpec } from './spec.js';

/** Lower-case names with `_`, comma-separated: a UUID, a run's name or a path never reads as one. */
const FIELD_LIST = /^[a-z_][a-z0-9_]*(,[a-z_][a-z0-9_]*)*,?$/;

/** The words that name a subcommand of `node`, or a choice of its arguments: never taken as --json's fields. */
function wordsOf(children: readonly CommandSpec[], node: CommandSpec | undefined): Set<string> {
  const words = new Set<string>();
  for (const child of children) for (const name of [child.name, ...(child.aliases ?? [])]) words.add(name);
  for (const arg of node?.args ?? []) for (const choice of arg.choices ?? []) words.add(choice);
  return words;
}

/** The command line with each bare `--json` where commander cannot take a value for it. */
export function jsonFlagArgv(argv: readonly string[], tree: readonly CommandSpec[]): string[] {
  const end = argv.indexOf('--');
  const options = end < 0 ? [...argv] : argv.slice(0, end);
  const rest = end < 0 ? [] : argv.slice(end);
  if (!options.includes('--json')) return [...argv];
  const out: string[] = [];
  let bare = false;
  // The command named so far: a word that names one of its subcommands goes down to it.
  let node: CommandSpec | undefined;
  let children = tree;
  for (let i = 0; i < options.length; i++) {
    const word = options[i]!;
    if (word !== '--json') {
      const child = children.find((c) => c.name === word || c.aliases?.includes(word));
      if (child) [node, children] = [child, child.subcommands ?? []];
      out.push(word);
      continue;
    }
    const next = options[i + 1];
    if (next !== undefined && FIELD_LIST.test(next) && !wordsOf(children, node).has(next)) {
      out.push(`--json=${next}`);
      i++;
    } else {
      bare = true;
    }
  }
  // At the end (before `--`): what follows is nothing, or `--`, which commander never takes as a value.
  return [...out, ...(bare ? ['--json'] : []), ...rest];
}

/** The fields of `--json FIELDS`; undefined for a bare --json. */
export function jsonFields(value: string | boolean | undefined): string[] | undefined {
  if (typeof value !== 'string') return undefined;
  return value
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean);
}
