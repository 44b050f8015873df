// The declarative command tree as a flat list, for tests that check every command.
import type { CommandSpec } from '../../src/commands/spec.js';

/** Every visible command of the tree, groups and leaves, with its path. */
export function visibleCommands(specs: readonly CommandSpec[], parent: string[] = []): Array<{ path: string[]; spec: CommandSpec }> {
  return specs
    .filter((s) => !s.hidden)
    .flatMap((spec) => [{ path: [...parent, spec.name], spec }, ...visibleCommands(spec.subcommands ?? [], [...parent, spec.name])]);
}
