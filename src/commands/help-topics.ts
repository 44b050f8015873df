// `platform help exit-codes` and `platform help environment`: reference pages that are not
// commands. Exit codes come from src/base/errors.ts, so the page cannot drift from the code.
import { EXIT } from '../base/errors.js';

/** `platform help [command...]`, as listed in --help and offered by the completions. */
export const HELP_COMMAND = { name: 'help', summary: 'Show help for a command, or a topic: exit-codes, environment' };

export interface HelpTopic {
  name: string;
  summary: string;
  text: () => string;
}

const exitCodes: Array<[number, string]> = [
  [EXIT.ok, 'success'],
  [EXIT.failure, 'failure: the API answered with an error, a webhook signature is invalid, or some rows of a bulk change failed'],
  [EXIT.usage, 'usage error: a bad flag, argument or input file; nothing was sent'],
  [EXIT.auth, 'authentication needed: no or refused credentials; the message names the `platform auth login` command to run'],
  [EXIT.interrupted, 'interrupted (Ctrl-C; a bulk run also when its stdout is closed)'],
];

const environment: Array<[string, string]> = [
  ['PLATFORM_PROFILE', 'profile to use when --profile is not given'],
  ['PLATFORM_TOKEN', "access token to send as-is, instead of the profile's (nothing is stored)"],
  ['PLATFORM_CLIENT_ID', "OAuth client id, over the profile's"],
  ['PLATFORM_CLIENT_SECRET', "OAuth client secret, over the profile's (secrets are never command-line arguments)"],
  ['PLATFORM_WEBHOOK_SECRET', "secret `platform webhooks` commands sign and verify with (else the profile's client secret, else a prompt)"],
  ['PLATFORM_BASE_URL', "API base URL, over the profile's (e.g. a sandbox on another port)"],
  ['PLATFORM_AUTH_URL', "where the token and authorize endpoints are, over the profile's auth_url (default: the base URL)"],
  ['PLATFORM_RIDER_URL', "where the rider API is, over the profile's rider_url (default: the base URL)"],
  ['HTTPS_PROXY', 'proxy of https:// calls (a CONNECT tunnel; http://[user:password@]host[:port]); lower-case https_proxy first'],
  ['HTTP_PROXY', 'proxy of http:// calls (never of https:// ones, as with curl); lower-case http_proxy first'],
  ['ALL_PROXY', 'proxy of the calls whose scheme has none of the above'],
  ['NO_PROXY', 'hosts reached directly: names (and their subdomains), IP addresses, CIDR ranges, host:port, or *'],
  ['PLATFORM_CA_FILE', "a PEM file of CA certificates to trust besides Node's (like --ca-file; a TLS-inspecting proxy, a private CA)"],
  ['NODE_EXTRA_CA_CERTS', "Node's own way to add CA certificates; still trusted with --ca-file"],
  ['PLATFORM_SANDBOX_PORT', 'port of `sandbox serve` and of the profiles that point at the local sandbox (default 4010)'],
  ['PLATFORM_CONFIG_DIR', 'where profiles and tokens live (default: $XDG_CONFIG_HOME/platform, else ~/.config/platform)'],
  ['PLATFORM_SERVER_TOKEN', 'server token for `rider products` and `rider estimate price`, the calls that accept one'],
  ['PLATFORM_BROWSER', "command that opens the sign-in URL of `platform auth login` (else $BROWSER, else the system's)"],
  ['NO_COLOR', 'set to anything: no colours (same as --no-color)'],
  ['CLICOLOR_FORCE', 'set to anything but 0: colours even when stdout is not a terminal'],
];

function table(rows: Array<[string | number, string]>): string {
  const width = Math.max(...rows.map(([key]) => String(key).length));
  return rows.map(([key, text]) => `  ${String(key).padEnd(width)}  ${text}`).join('\n');
}

export const helpTopics: readonly HelpTopic[] = [
  {
    name: 'exit-codes',
    summary: 'What the exit status of a command means',
    text: () => `Exit codes of platform:\n\n${table(exitCodes)}\n\nErrors are one line on stderr; add --debug for a stack trace.\n`,
  },
  {
    name: 'environment',
    summary: 'Environment variables platform reads',
    text: () => `Environment variables:\n\n${table(environment)}\n\nFlags win over the environment, which wins over the stored profile.\n`,
  },
];

/** Lines for the "Help topics:" section of `platform --help`. */
export function helpTopicsText(): string {
  return `Help topics:\n${table(helpTopics.map((t) => [`platform help ${t.name}`, t.summary]))}\n`;
}
