// `platform help environment`: every environment variable platform reads.
import { table, type HelpTopic } from './topic.js';

const environment: Array<[string, string]> = [
  ['PLATFORM_PROFILE', 'profile to use when --profile is not given'],
  ['PLATFORM_TOKEN', "access token to send as-is, instead of the profile's (nothing is stored)"],
  ['PLATFORM_CLIENT_ID', "OAuth client id, over the profile's"],
  ['PLATFORM_CLIENT_SECRET', "OAuth client secret, over the profile's (secrets are never command-line arguments)"],
  ['PLATFORM_WEBHOOK_SECRET', "secret `platform webhooks` commands sign and verify with (else the profile's client secret, else a prompt)"],
  ['PLATFORM_BASE_URL', "API base URL, over the profile's (e.g. a sandbox on another port)"],
  ['PLATFORM_AUTH_URL', "where the token and authorize endpoints are, over the profile's auth_url (default: the base URL)"],
  ['PLATFORM_RIDER_URL', "where the rider API is, over the profile's rider_url (default: the base URL)"],
  ['PLATFORM_DOWNLOAD_URL', "where report files are fetched from, over the profile's download_url (default: the report URL's own origin)"],
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
  ['FORCE_COLOR', 'colours even when stdout is not a terminal; 0 or false: none (NO_COLOR and --no-color still win)'],
  ['TERM', 'dumb: no colours'],
  ['PLATFORM_ACCESSIBLE', '1: accessible mode, for screen readers (like --accessible); 0: off, over the profile (platform help accessibility)'],
  ['PLATFORM_CSV_DELIMITER', "separator of -o csv and --from-csv (; | tab ,), over the profile's csv_delimiter; --delimiter wins"],
  ['PLATFORM_CSV_DECIMAL_COMMA', "1: decimals as 1234,56 (like --decimal-comma); 0: off, over the profile's csv_decimal_comma"],
];

export const environmentTopic: HelpTopic = {
  name: 'environment',
  summary: 'Environment variables platform reads',
  text: () => `Environment variables:\n\n${table(environment)}\n\nFlags win over the environment, which wins over the stored profile.\n`,
};
