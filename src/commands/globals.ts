// The global options, declared once: src/cli.ts turns them into commander options and the
// shell completions offer them after every command. Plain data: it loads nothing.
import { OUTPUT_FORMATS } from '../base/io.js';
import { MAX_QUERY_DEPTH, MAX_QUERY_LENGTH } from '../output/query-limits.js';
import type { OptionSpec } from './spec.js';

/** The flag whose values are profile names (read from the config when completing). */
export const PROFILE_FLAG = '--profile';

export const globalOptions: readonly OptionSpec[] = [
  { flags: `${PROFILE_FLAG} <name>`, description: 'profile to use (env: PLATFORM_PROFILE; default: the last one logged in to, else "local", the sandbox)' },
  {
    flags: '-o, --output <format>',
    description:
      'output format (default: table on a terminal, json otherwise). table fits the terminal, never cutting an id; wide: every column, whole; ' +
      'text: one line per item, values tab-separated, no header, a string result of --query bare (ID=$(platform ... --query "[0].id" -o text))',
    choices: OUTPUT_FORMATS,
  },
  { flags: '--json', description: 'same as --output json' },
  { flags: '--no-color', description: 'no colours (also NO_COLOR)' },
  { flags: '--debug', description: 'trace HTTP requests and responses on stderr (secrets redacted)' },
  { flags: '--ca-file <file>', description: "PEM file of CA certificates to trust besides Node's (env: PLATFORM_CA_FILE; profile: ca_file)" },
  {
    flags: '--query <expr>',
    description:
      'JMESPath expression applied to the whole output: a list given --query reads every page first, as with --all (--limit N: the first N); ' +
      `at most ${MAX_QUERY_LENGTH} characters and ${MAX_QUERY_DEPTH} levels deep. ` +
      // (short enough to wrap at 80 columns)
      'E.g. "[?starts_with(name, \'Spring\')].campaign_id"',
  },
  {
    flags: '--safe-csv',
    description:
      "-o csv: start cells a spreadsheet would run as a formula (=, +, -, @, tab, CR) with a ' (always so on a terminal; --from-csv would keep the ')",
  },
];

/** Built in by commander: --help everywhere, --version on the program. */
export const helpOption: OptionSpec = { flags: '-h, --help', description: 'display help for command' };
export const versionOption: OptionSpec = { flags: '-v, --version', description: 'print the version' };
