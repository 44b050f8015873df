// The global options, declared once: src/cli.ts turns them into commander options and the
// shell completions offer them after every command. Plain data: it loads nothing. Each
// description is one short line (listed whole by `platform --help`); the rest of what
// there is to say about them is `platform help globals` (help/globals.ts).
import { OUTPUT_FORMATS } from '../base/io.js';
import type { OptionSpec } from './spec.js';

/** The flag whose values are profile names (read from the config when completing). */
export const PROFILE_FLAG = '--profile';

export const globalOptions: readonly OptionSpec[] = [
  { flags: `${PROFILE_FLAG} <name>`, description: 'profile to use (env: PLATFORM_PROFILE)' },
  {
    flags: '-o, --output <format>',
    description: `output format: ${OUTPUT_FORMATS.join('|')}`,
    choices: OUTPUT_FORMATS,
  },
  {
    flags: '--json [fields]',
    description: "same as --output json; with FIELDS (comma-separated, the API's names: --json campaign_id,name), only those fields of each item",
  },
  { flags: '--no-color', description: 'no colours (also NO_COLOR)' },
  { flags: '--accessible', description: 'for screen readers: no redraws, tables as records, numbered prompts (platform help accessibility)' },
  { flags: '--debug', description: 'trace HTTP on stderr (secrets redacted)' },
  { flags: '--ca-file <file>', description: 'PEM file of extra CA certificates to trust' },
  {
    flags: '--query <expr>',
    description: 'JMESPath expression applied to the output',
  },
  {
    flags: '--safe-csv',
    description: "-o csv: start formula-like cells with a '",
  },
  { flags: '--delimiter <char>', description: 'CSV (-o csv, --from-csv) separated by ; | or tab' },
  { flags: '--decimal-comma', description: 'CSV (-o csv, --from-csv) decimals as 1.234,56' },
];

/** Built in by commander: --help everywhere, --version on the program. */
export const helpOption: OptionSpec = { flags: '-h, --help', description: 'display help for command' };
export const versionOption: OptionSpec = { flags: '-v, --version', description: 'print the version' };
