// Reading an OptionSpec's commander flags string, e.g. `-o, --output <format>`.
import type { OptionSpec } from './spec.js';

/** e.g. ['-o', '--output'] */
export function flagNames(spec: OptionSpec): string[] {
  return spec.flags.split(/[ ,|]+/).filter((part) => part.startsWith('-'));
}

/** Whether the flag takes a value (`<v>`); an optional one (`--json [fields]`) is complete without it (json-flag.ts). */
export function takesValue(spec: OptionSpec): boolean {
  return spec.flags.includes('<');
}
