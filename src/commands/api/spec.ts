// `platform api ...`: its commands, flags, help and examples. Data only: command code
// loads when it runs. Each command's flags type is derived from its options here.
import { ACCOUNT } from '../ads/spec.js';
import { command, option, options, type FlagsOf } from '../spec.js';

const apiOptions = options(
  option({ flags: '-f, --raw-field <key=value>', description: 'add a string field (repeatable; key[]=v appends to an array, a[b]=v nests)', kind: 'repeat' }),
  option({
    flags: '-F, --field <key=value>',
    description: "add a typed field: numbers, true, false, null, or @file / @- for a file's contents (repeatable)",
    kind: 'repeat',
  }),
  option({ flags: '--input <file>', description: 'send this file (- for stdin) as the request body', file: true }),
  option({ flags: '-H, --header <name:value>', description: 'add a request header (repeatable)', kind: 'repeat' }),
  option({ flags: '--paginate', description: 'follow next_page_token and print every item as one JSON array (or NDJSON with -o ndjson)' }),
  option({ flags: '-i, --include', description: 'print the status line and response headers before the body (of the first page with --paginate)' }),
);
export type ApiFlags = FlagsOf<typeof apiOptions>;

export const apiSpec = command({
  name: 'api',
  summary: 'Send an authenticated request to any API path',
  description:
    "Calls METHOD PATH with the profile's token (fetched, retried and refreshed as for any command) " +
    'and prints the response body: pretty JSON on a terminal, the raw body otherwise. METHOD is GET, ' +
    'or POST when -f/-F/--input give a body (GET with --paginate). Fields are query parameters for GET ' +
    'and a JSON body otherwise (with --input, query parameters). A non-2xx answer prints its body, ' +
    "exits 1 and says why on stderr. Rider API paths (/v1.2/...) go to the profile's rider_url, " +
    'every other path to its base_url.',
  args: [
    { name: 'method-or-path', description: 'METHOD (GET, POST, PATCH, PUT, DELETE) followed by PATH, or just PATH', required: true },
    { name: 'path', description: 'PATH when METHOD comes first, e.g. /v1/ads/ad-accounts' },
  ],
  options: apiOptions,
  examples: [
    'platform api /v1/ads/ad-accounts',
    `platform api /v1/ads/${ACCOUNT}/campaigns --paginate -o ndjson`,
    `platform api GET /v1/ads/${ACCOUNT}/campaigns -F page_limit=5 -i`,
    `platform api PATCH /v1/ads/${ACCOUNT}/campaigns --input changes.json`,
    'platform api /v1.2/me',
  ],
  load: () => import('./api.js'),
});
