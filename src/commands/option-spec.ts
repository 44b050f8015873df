// Reading an OptionSpec's commander flags string, e.g. `-o, --output <format>`.
import type { OptionSpec } from './spec.js';

/** e.g. ['-o', '--output'] */
export function flagNames(spec: OptionSpec): string[] {
  return spec.flags.split(/[ ,|]+/).filter((part) => part.startsWith('-'));
}

/** Whether the flag takes a value (`<v>` or `[v]`). */
export function takesValue(spec: OptionSpec): boolean {
  return /[<[]/.test(spec.flags);
}
