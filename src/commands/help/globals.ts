// `platform help globals`: the flags every command takes, in full. Each command's help
// names them in two lines and points here.
import { MAX_QUERY_DEPTH, MAX_QUERY_LENGTH } from '../../output/query-limits.js';
import { globalOptions, helpOption, versionOption } from '../globals.js';
import { table, type HelpTopic } from './topic.js';

export const GLOBALS_TOPIC = 'globals';

const more = `Output formats (-o, --output):
  table   the default on a terminal: fits the terminal's width, never cutting an id
  wide    every column, whole
  json    the API's own items (the default when stdout is not a terminal)
  ndjson  one JSON item per line
  csv     a header row, then one row per item (see --safe-csv)
  text    one line per item, values tab-separated, no header; a string result of --query is printed bare: ID=$(platform ... --query "[0].id" -o text)

--query EXPR is a JMESPath expression applied to the whole output (what -o json would print). A list given --query reads every page first, as with --all (--limit N: the first N). At most ${MAX_QUERY_LENGTH} characters and ${MAX_QUERY_DEPTH} levels deep. E.g.
  --query "[?starts_with(name, 'Spring')].campaign_id"

--profile NAME picks the profile (env: PLATFORM_PROFILE); the default is the last one logged in to, else "local", the sandbox.

--ca-file FILE: a PEM file of CA certificates to trust besides Node's (env: PLATFORM_CA_FILE; profile setting: ca_file), e.g. for a TLS-inspecting proxy.

--safe-csv, with -o csv: cells a spreadsheet would run as a formula (starting with =, +, -, @, a tab or CR) start with a ' instead. Always so on a terminal. Reading such a file back with --from-csv would keep the '.

--delimiter CHAR and --decimal-comma, with -o csv or --from-csv (refused elsewhere): a spreadsheet's dialect, e.g. ';' and 1234,56 (platform help csv; profile settings: csv_delimiter, csv_decimal_comma).

--debug traces every HTTP request and response on stderr, secrets redacted, and prints the stack of an error.

--no-color: no colours (also NO_COLOR; CLICOLOR_FORCE forces them off a terminal).
`;

export const globalsTopic: HelpTopic = {
  name: GLOBALS_TOPIC,
  summary: 'Flags every command takes (--profile, -o, ...)',
  text: () => {
    const flags = [...globalOptions.filter((o) => !o.hidden), helpOption, versionOption].map((o) => [o.flags, o.description] as const);
    return `Global flags: every command takes them, before or after its name.\n\n${table(flags)}\n\n${more}`;
  },
};
